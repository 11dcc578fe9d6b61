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

#endif
