#!/usr/bin/env bash
# scripts/deps.sh on a machine that has never heard of some packages (a fresh Debian: dpkg-query
# exits 1 for them) must install exactly the missing ones, and be a quiet no-op when none is
# missing.  dpkg-query, apt-get, id and sudo are stand-ins on PATH that record what was asked.
set -u
cd "$(dirname "$0")/../.."
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
mkdir -p "$t/bin"
# dpkg-query -W -f=FMT PKG...: "installed PKG" for those listed in $t/installed; "no packages found"
# and exit 1 when any is unknown, as the real one does.
cat >"$t/bin/dpkg-query" <<'SH'
#!/usr/bin/env bash
rc=0
for a in "$@"; do
    case "$a" in -*) continue ;; esac
    if grep -qxF -- "$a" "$FAKE/installed"; then echo "installed $a"
    else echo "dpkg-query: no packages found matching $a" >&2; rc=1; fi
done
exit $rc
SH
cat >"$t/bin/apt-get" <<'SH'
#!/usr/bin/env bash
echo "apt-get $*" >>"$FAKE/calls"
SH
printf '#!/bin/sh\necho 1000\n' >"$t/bin/id"
printf '#!/usr/bin/env bash\necho "sudo $1" >>"$FAKE/calls"\nexec "$@"\n' >"$t/bin/sudo"
chmod +x "$t/bin/"*
export FAKE=$t PATH="$t/bin:$PATH"

# every package the script names, read from its pkgs lines
all=$(sed -n 's/^pkgs+\{0,1\}=(\(.*\))$/\1/p' scripts/deps.sh | tr ' ' '\n' | grep -v '^$')
[ "$(echo "$all" | wc -l)" -ge 10 ] || { echo "FAIL: could not read the package list"; exit 1; }

# 1. all but clang-22 and chromium installed: those two are installed, nothing else
echo "$all" | grep -vxE 'clang-22|chromium' >"$t/installed"
: >"$t/calls"
if ! out=$(bash scripts/deps.sh 2>&1); then
    echo "FAIL: deps.sh failed with two unknown packages: $out"; fail=1
fi
inst=$(grep '^apt-get .*install' "$t/calls")
if [ "$(grep -c 'apt-get update' "$t/calls")" -ne 1 ] || ! grep -q ' clang-22' <<<"$inst" ||
    ! grep -q ' chromium' <<<"$inst" || grep -q ' llvm-22' <<<"$inst"; then
    echo "FAIL: expected one apt-get update and an install of clang-22 and chromium only:"
    cat "$t/calls"; fail=1
fi
grep -q '^sudo apt-get' "$t/calls" || { echo "FAIL: not root, but apt-get ran without sudo"; fail=1; }

# 2. everything installed: no apt-get at all, no output
echo "$all" >"$t/installed"
: >"$t/calls"
out=$(bash scripts/deps.sh 2>&1) || { echo "FAIL: deps.sh failed with nothing missing: $out"; fail=1; }
[ -s "$t/calls" ] && { echo "FAIL: nothing missing, yet:"; cat "$t/calls"; fail=1; }
[ -z "$out" ] || { echo "FAIL: nothing missing, yet it printed: $out"; fail=1; }

[ $fail -eq 0 ] && echo "test_deps: ok"
exit $fail
