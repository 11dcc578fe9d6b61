#ifndef PUSHDECK_CNCURSES_SHIM_H
#define PUSHDECK_CNCURSES_SHIM_H

// Wide-character curses: these must come before any system header.
#define _XOPEN_SOURCE_EXTENDED 1
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#define NCURSES_WIDECHAR 1

#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

// Macros and globals Swift cannot import (or rejects as shared mutable state) are read through
// these helpers by the one owner of the terminal.
static inline WINDOW *pd_stdscr(void) { return stdscr; }
static inline int pd_lines(void) { return LINES; }
static inline int pd_cols(void) { return COLS; }
static inline int pd_colors(void) { return COLORS; }
static inline attr_t pd_a_bold(void) { return A_BOLD; }
static inline attr_t pd_a_reverse(void) { return A_REVERSE; }
static inline attr_t pd_a_dim(void) { return A_DIM; }
static inline attr_t pd_a_underline(void) { return A_UNDERLINE; }
static inline attr_t pd_a_normal(void) { return A_NORMAL; }
static inline attr_t pd_color_pair(short n) { return COLOR_PAIR(n); }
static inline int pd_key_resize(void) { return KEY_RESIZE; }
static inline int pd_key_mouse(void) { return KEY_MOUSE; }
static inline int pd_key_code_yes(void) { return KEY_CODE_YES; }
static inline int pd_ok(void) { return OK; }
static inline int pd_err(void) { return ERR; }
static inline TERMINAL *pd_cur_term(void) { return cur_term; }
static inline const char *pd_codeset(void) { return nl_langinfo(CODESET); }
static inline mmask_t pd_all_mouse_events(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }
static inline mmask_t pd_button1_clicked(void) { return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED; }
static inline mmask_t pd_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t pd_button5_pressed(void) { return BUTTON5_PRESSED; }

// Mouse events the UI uses: a left click (pressed or clicked, so it works with mouseinterval 0),
// double and triple clicks (even with mouseinterval 0, curses merges the reports of one read into
// them: two quick clicks that arrive together would otherwise be lost), the wheel (buttons 4 and
// 5), and pointer moves (the banner's timer pauses under the pointer).
static inline mmask_t pd_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED
        | BUTTON4_PRESSED | BUTTON5_PRESSED | REPORT_MOUSE_POSITION;
}
// How many left clicks the event stands for: 3, 2, 1, or 0 when it is no left click.
static inline int pd_mouse_clicks(mmask_t state) {
    if (state & BUTTON1_TRIPLE_CLICKED) return 3;
    if (state & BUTTON1_DOUBLE_CLICKED) return 2;
    return (state & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0;
}
static inline mmask_t pd_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t pd_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t pd_button1_released(void) { return BUTTON1_RELEASED; }
static inline int pd_mouse_is_move(mmask_t state) { return (state & REPORT_MOUSE_POSITION) != 0; }
static inline mmask_t pd_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }
static inline int pd_mouse_is_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int pd_mouse_is_wheel_down(mmask_t state) { return (state & BUTTON5_PRESSED) != 0; }

// The terminal size of fd (TIOCGWINSZ is an ioctl request macro); 0 on success.
static inline int pd_window_size(int fd, int *rows, int *cols) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *cols = size.ws_col;
    return 0;
}

// Frees the terminfo entry setupterm loaded for a check, so newterm starts clean.
static inline void pd_release_setupterm(void) {
    if (cur_term != NULL) { del_curterm(cur_term); cur_term = NULL; }
}

// tigetstr returns (char *)-1 for a name that is not a string capability.
static inline int pd_string_capability_is_missing(const char *value) {
    return value == NULL || value == (const char *)-1;
}

// A pseudo-terminal pair (the terminal checks' tests need a tty without a real terminal); 0 on
// success. posix_openpt and friends need _XOPEN_SOURCE, which only this header defines.
static inline int pd_open_pseudoterminal(int *primary, int *secondary) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0) return -1;
    const char *name = (grantpt(fd) == 0 && unlockpt(fd) == 0) ? ptsname(fd) : NULL;
    int other = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    if (other < 0) { close(fd); return -1; }
    *primary = fd;
    *secondary = other;
    return 0;
}

#endif
