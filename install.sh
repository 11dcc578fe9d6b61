#!/usr/bin/env bash
# Builds pushdeck (release) and installs it under a prefix, or removes exactly what it installed.
#
#   ./install.sh [--prefix P]              build release, install under P (default ~/.local)
#   ./install.sh --uninstall [--prefix P]  remove what the install under P put there
#
# Installed: P/bin/pushdeck, P/share/man/man1/pushdeck.1 ('pushdeck help --man'), the completions
# ('pushdeck completions bash|zsh|fish') where bash-completion and fish look for a user's own
# under ~/.local/share (bash-completion/completions, fish/vendor_completions.d), and zsh's
# share/zsh/site-functions (put it on fpath before compinit), and P/share/pushdeck/ (the
# sample payloads and scenarios 'pushdeck demo' plays; the binary finds them there, beside its own
# folder). P/share/pushdeck/installed-files lists every file and every folder the install made;
# --uninstall removes those files, then those folders when they are empty, and nothing else.
#
# --binary FILE installs FILE instead of building (a release binary built already; the
# environment's PUSHDECK_INSTALL_BINARY does the same, for the test that runs README as pasted);
# --scratch-path DIR builds in DIR instead of .build (swift build --scratch-path).
set -euo pipefail
cd "$(dirname "$0")"

usage() {
    echo "usage: ./install.sh [--prefix P] [--binary FILE | --scratch-path DIR] | ./install.sh --uninstall [--prefix P]" >&2
    exit 2
}

prefix="${HOME:?HOME is not set}/.local"
binary="${PUSHDECK_INSTALL_BINARY:-}"
scratch=()
uninstall=0
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] && [ -n "$2" ] || usage; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; [ -n "$prefix" ] || usage; shift ;;
        --binary) [ $# -ge 2 ] && [ -n "$2" ] || usage; binary="$2"; shift 2 ;;
        --scratch-path) [ $# -ge 2 ] && [ -n "$2" ] || usage; scratch=(--scratch-path "$2"); shift 2 ;;
        --uninstall) uninstall=1; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1'" >&2; usage ;;
    esac
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
prefix="${prefix%/}"
manifest="$prefix/share/pushdeck/installed-files"

# Removes what an earlier install listed: its files, then its folders when empty (deepest first:
# the list has each folder before the ones inside it). Sets `removed` to the number of files.
remove_installed() {
    local line i files=() dirs=()
    while IFS= read -r line; do
        case "$line" in
            "file "*) files+=("${line#file }") ;;
            "dir "*) dirs+=("${line#dir }") ;;
        esac
    done <"$manifest"
    for line in "${files[@]}"; do rm -f "$prefix/$line"; done
    for ((i = ${#dirs[@]} - 1; i >= 0; i--)); do rmdir "$prefix/${dirs[i]}" 2>/dev/null || true; done
    removed=${#files[@]}
}

if [ "$uninstall" = 1 ]; then
    if [ ! -f "$manifest" ]; then
        echo "install.sh: no pushdeck installed under $prefix (no $manifest)" >&2
        exit 1
    fi
    remove_installed
    echo "removed pushdeck from $prefix ($removed files)"
    exit 0
fi

if [ -z "$binary" ]; then
    echo "install.sh: swift build -c release --product pushdeck ${scratch[*]}"
    swift build -c release --product pushdeck "${scratch[@]}"
    binary="$(swift build -c release --show-bin-path "${scratch[@]}")/pushdeck"
fi
[ -x "$binary" ] || { echo "install.sh: no executable pushdeck at $binary" >&2; exit 1; }

# A reinstall replaces the earlier one (the sample files may have changed since).
if [ -f "$manifest" ]; then remove_installed; fi

listed=()
# Makes folder $1 (relative to the prefix) and the parents missing, listing each one made.
make_dir() {
    [ -d "$prefix/$1" ] && return 0
    case "$1" in */*) make_dir "${1%/*}" ;; esac
    mkdir "$prefix/$1"
    listed+=("dir $1")
}
# Installs file $1 (mode $2) as $3 (relative to the prefix).
put() {
    make_dir "${3%/*}"
    install -m "$2" "$1" "$prefix/$3"
    listed+=("file $3")
}
generated="$(mktemp -d)"
trap 'rm -rf "$generated"' EXIT

mkdir -p "$prefix"
put "$binary" 0755 bin/pushdeck
installed="$prefix/bin/pushdeck"
# The installed binary writes its own man page and completions: they describe exactly it.
"$installed" help --man >"$generated/pushdeck.1"
put "$generated/pushdeck.1" 0644 share/man/man1/pushdeck.1
for shell in bash zsh fish; do "$installed" completions "$shell" >"$generated/$shell"; done
put "$generated/bash" 0644 share/bash-completion/completions/pushdeck
put "$generated/zsh" 0644 share/zsh/site-functions/_pushdeck
put "$generated/fish" 0644 share/fish/vendor_completions.d/pushdeck.fish
while IFS= read -r file; do
    put "Resources/$file" 0644 "share/pushdeck/$file"
done < <(cd Resources && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
listed+=("file share/pushdeck/installed-files")
printf '%s\n' "${listed[@]}" >"$manifest"

echo "installed $("$installed" --version) under $prefix ($(grep -c '^file ' "$manifest") files)"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on PATH; add it (e.g. export PATH=\"$prefix/bin:\$PATH\" in ~/.bashrc)" ;;
esac
