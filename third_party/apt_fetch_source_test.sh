#!/usr/bin/env bash
# Tests third_party/apt_fetch_source against local file: mirrors made from the Abseil source files the build fetched.
#
# Each mirror is a real apt repository: pool/, dists/SUITE/main/source/Sources, and a Release file listing the
# Sources index's SHA-256, clear-signed as InRelease by a key made for this test. Debian's archive key cannot sign a
# local mirror, so the chain is tested with a throwaway key in its place: apt_fetch_source passes the configured
# entry's Signed-By through unchanged, and apt checks the signature against it exactly as it checks Debian's
# (no [trusted=yes] anywhere). The cases show that:
#   - the archive is the one apt's configuration names (APT_CONFIG points apt at a sources directory here; both the
#     deb822 .sources and the one-line .list format; a `Types: deb` entry is enough, deb-src is derived; an entry
#     with `Enabled: no` is skipped), and the newest version of the upstream release is taken, newer upstream
#     releases ignored;
#   - a tarball whose checksum does not match the signed Sources index is rejected, and so is a Sources index
#     rewritten to match the tampered tarball (its hash no longer matches the signed Release), a Release signed by
#     another key, and an unsigned one.
set -euo pipefail

fetch="$TEST_SRCDIR/$TEST_WORKSPACE/third_party/apt_fetch_source"
source_files="$TEST_SRCDIR/com_google_absl/debian_source"
[[ -x "$fetch" ]] || { echo "missing $fetch"; exit 1; }
dsc="$(ls "$source_files"/*.dsc)"
[[ -f "$dsc" ]] || { echo "no .dsc in $source_files"; exit 1; }
real_version="$(sed -n 's/^Version: //p' "$dsc" | head -n1)"

# Under /tmp rather than TEST_TMPDIR: gpg-agent's socket path must be short, and apt's _apt user (apt drops to it
# when run as root) must be able to read the mirror.
tmp="$(mktemp -d /tmp/apt_fetch_test.XXXXXX)"
chmod 755 "$tmp"
export GNUPGHOME="$tmp/gnupg"
cleanup() {
  gpgconf --kill gpg-agent >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -m 700 "$GNUPGHOME"

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

gpg_q() { gpg --batch --quiet --pinentry-mode loopback --passphrase '' "$@" 2>>"$tmp/gpg.log"; }
gpg_q --quick-gen-key 'coreutils test mirror <mirror@test.invalid>' ed25519 sign never
gpg_q --quick-gen-key 'someone else <stranger@test.invalid>' ed25519 sign never
gpg_q --export 'mirror@test.invalid' >"$tmp/mirror-key.gpg"

# The Sources stanza of a .dsc (Package instead of Source, the .dsc itself among the checksummed files).
sources_stanza() { # DSC DIRECTORY [VERSION]
  local dsc="$1" dir="$2" version="${3:-}"
  local name size sha
  name="$(basename "$dsc")"
  size="$(stat -L -c %s "$dsc")"
  sha="$(sha256sum "$dsc" | cut -d' ' -f1)"
  # The signed .dsc's body: between the armor header's blank line and the signature.
  awk '/^-----BEGIN PGP SIGNED MESSAGE-----/ { skip = 1; next }
       skip && /^$/ { skip = 0; next }
       skip { next }
       /^-----BEGIN PGP SIGNATURE-----/ { exit }
       { print }' "$dsc" |
    awk -v dir="$dir" -v entry=" $sha $size $name" -v version="$version" '
      # Keep simple fields and Checksums-Sha256 (with the .dsc added); drop the other checksum lists.
      /^[A-Za-z0-9-]+:/ { field = $1; keep = (field != "Files:" && field != "Checksums-Sha1:") }
      !keep { next }
      field == "Source:" { sub(/^Source:/, "Package:") }
      field == "Version:" && version != "" { $0 = "Version: " version }
      field == "Checksums-Sha256:" && /^Checksums-Sha256:/ { print; print entry; next }
      { print }
      END { print "Directory: " dir; print "" }'
}

# A stanza for a version whose files are not in the pool: listed, never fetched unless chosen.
decoy_stanza() { # VERSION
  cat <<EOF
Package: abseil
Binary: libabsl-dev
Version: $1
Format: 3.0 (quilt)
Directory: pool/main/a/abseil
Checksums-Sha256:
 0000000000000000000000000000000000000000000000000000000000000000 100 abseil_$1.dsc

EOF
}

# make_mirror DIR: suite "stable" serves the real version, suite "older" an older 20220623.x and suite "newer" a
# newer upstream release (both decoys); all signed by the mirror key.
make_mirror() {
  local dir="$1"
  mkdir -p "$dir/pool/main/a/abseil" "$dir/dists/"{stable,older,newer}/main/source
  cp "$source_files"/abseil_* "$dir/pool/main/a/abseil/"
  sources_stanza "$dsc" pool/main/a/abseil >"$dir/dists/stable/main/source/Sources"
  decoy_stanza 20220623.0-1 >"$dir/dists/older/main/source/Sources"
  decoy_stanza 20240722.0-1 >"$dir/dists/newer/main/source/Sources"
  local suite
  for suite in stable older newer; do sign_suite "$dir" "$suite" mirror@test.invalid; done
}

# sign_suite DIR SUITE KEY: write Release for the suite's Sources and clear-sign it as InRelease (KEY "" = unsigned).
sign_suite() {
  local dir="$1" suite="$2" key="$3" d="$1/dists/$2"
  rm -f "$d/Release" "$d/InRelease"
  {
    echo "Origin: coreutils-test"
    echo "Label: coreutils-test"
    echo "Suite: $suite"
    echo "Codename: $suite"
    echo "Date: $(LC_ALL=C date -u -R)"
    echo "Architectures: amd64"
    echo "Components: main"
    echo "SHA256:"
    printf ' %s %s main/source/Sources\n' "$(sha256sum "$d/main/source/Sources" | cut -d' ' -f1)" \
      "$(stat -c %s "$d/main/source/Sources")"
  } >"$d/Release"
  if [[ -n "$key" ]]; then
    gpg_q --local-user "$key" --clearsign --output "$d/InRelease" "$d/Release"
    rm "$d/Release"
  fi
}

# apt configuration for a case: APT_CONFIG names a sources list and directory under $tmp/etc-NAME.
configure() { # NAME -> prints the APT_CONFIG path; the caller writes the sources files
  local etc="$tmp/etc-$1"
  mkdir -p "$etc/sources.list.d"
  : >"$etc/sources.list"
  printf 'Dir::Etc::SourceList "%s/sources.list";\nDir::Etc::SourceParts "%s/sources.list.d";\n' "$etc" "$etc" \
    >"$etc/apt.conf"
  echo "$etc"
}

deb822_entry() { # MIRROR_DIR [SUITES]
  cat <<EOF
# a test mirror
Types: deb
URIs: file:$1
Suites: ${2:-stable older newer}
Components: main
Signed-By: $tmp/mirror-key.gpg

Types: deb
URIs: file:$tmp/no-such-mirror
Suites: stable
Components: main
Signed-By: $tmp/mirror-key.gpg
Enabled: no
EOF
}

run_fetch() { # NAME ETC -> sets out, err, rc; dest is $tmp/dest-NAME
  local name="$1" etc="$2"
  rc=0
  APT_CONFIG="$etc/apt.conf" TMPDIR="$tmp" "$fetch" --package abseil --upstream 20220623 --dest "$tmp/dest-$name" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
  out="$(cat "$tmp/$name.out")"
  err="$(cat "$tmp/$name.err")"
}

expect_fetched() { # NAME
  local name="$1"
  if ((rc != 0)) || [[ "$out" != "$real_version" ]]; then
    fail "$name: expected version $real_version on stdout and status 0, got '$out', status $rc; stderr:"$'\n'"$err"
    return
  fi
  local f intact=1
  for f in "$source_files"/abseil_*; do
    if ! cmp -s "$f" "$tmp/dest-$name/$(basename "$f")"; then
      fail "$name: $(basename "$f") not fetched intact"
      intact=0
    fi
  done
  ((intact)) && echo "ok: $name"
}

expect_rejected() { # NAME PATTERN [PATTERN]
  local name="$1" pattern="$2" pattern2="${3:-}"
  if ((rc == 0)); then
    fail "$name: expected a failure, got status 0 and '$out'"
  elif [[ -e "$tmp/dest-$name" ]]; then
    fail "$name: failed but left $tmp/dest-$name behind"
  elif ! grep -qE "$pattern" <<<"$err" || ! grep -qE "${pattern2:-.}" <<<"$err"; then
    fail "$name: expected stderr to match /$pattern/ and /$pattern2/, got:"$'\n'"$err"
  else
    echo "ok: $name"
  fi
}

# 1. deb822 sources, as Debian 12 writes them: the newest 20220623.x is fetched from the configured mirror.
make_mirror "$tmp/mirror"
etc="$(configure deb822)"
deb822_entry "$tmp/mirror" >"$etc/sources.list.d/test.sources"
# A file apt itself ignores (wrong extension) pointing nowhere: must be ignored here too.
echo "deb file:$tmp/no-such-mirror stable main" >"$etc/sources.list.d/old.list.disabled"
run_fetch deb822 "$etc"
expect_fetched deb822

# 2. One-line format in sources.list, options in brackets.
etc="$(configure oneline)"
echo "deb [signed-by=$tmp/mirror-key.gpg] file:$tmp/mirror stable main  # comment" >"$etc/sources.list"
run_fetch oneline "$etc"
expect_fetched oneline

# 3. No version of the upstream release served: only a newer upstream release.
etc="$(configure none)"
echo "deb [signed-by=$tmp/mirror-key.gpg] file:$tmp/mirror newer main" >"$etc/sources.list"
run_fetch none "$etc"
expect_rejected none 'serves no abseil 20220623\.x; versions served: 20240722\.0-1$'

# 4. A 20220623.x listed in the index whose files the mirror lacks: chosen, then the download fails.
etc="$(configure missing)"
printf 'deb [signed-by=%s] file:%s %s main\n' "$tmp/mirror-key.gpg" "$tmp/mirror" older \
  "$tmp/mirror-key.gpg" "$tmp/mirror" newer >"$etc/sources.list"
run_fetch missing "$etc"
expect_rejected missing 'abseil=20220623\.0-1 was not fetched'

# 5. A tarball altered in the mirror (same size, one byte changed), the signed index unchanged: rejected.
cp -R "$tmp/mirror" "$tmp/mirror-tampered"
orig="$(ls "$tmp/mirror-tampered/pool/main/a/abseil/"*.orig.tar.*)"
printf 'X' | dd of="$orig" bs=1 seek=1000 conv=notrunc status=none
etc="$(configure tampered)"
deb822_entry "$tmp/mirror-tampered" stable >"$etc/sources.list.d/test.sources"
run_fetch tampered "$etc"
expect_rejected tampered 'Hash Sum mismatch'

# 6. The same, with the Sources index rewritten to the tampered tarball's checksum (Release not re-signed): the
#    index no longer matches the signed Release, so apt-get update rejects it.
sha_old="$(sha256sum "$source_files/$(basename "$orig")" | cut -d' ' -f1)"
sha_new="$(sha256sum "$orig" | cut -d' ' -f1)"
sed -i "s/$sha_old/$sha_new/" "$tmp/mirror-tampered/dists/stable/main/source/Sources"
grep -q "$sha_new" "$tmp/mirror-tampered/dists/stable/main/source/Sources" || fail "index-rewritten: setup"
run_fetch index-rewritten "$etc"
expect_rejected index-rewritten 'main/source/Sources +Hash Sum mismatch' \
  'serves no abseil 20220623\.x; versions served: none'

# 7. Release re-signed by a key the entry does not trust.
sign_suite "$tmp/mirror-tampered" stable stranger@test.invalid
run_fetch wrong-key "$etc"
expect_rejected wrong-key 'NO_PUBKEY' 'serves no abseil 20220623\.x; versions served: none'

# 8. Unsigned Release.
sign_suite "$tmp/mirror-tampered" stable ""
run_fetch unsigned "$etc"
expect_rejected unsigned "stable Release' is not signed" 'serves no abseil 20220623\.x; versions served: none'

# 9. Beside the good mirror, a signed repository without source indexes (binary packages only, as many third-party
#    repositories are) and an unsigned one: both are left out with apt's warnings, the good mirror still serves.
mkdir -p "$tmp/binary-only/dists/stable/main/binary-amd64"
: >"$tmp/binary-only/dists/stable/main/binary-amd64/Packages"
{
  echo "Suite: stable"; echo "Codename: stable"; echo "Date: $(LC_ALL=C date -u -R)"; echo "Components: main"
  echo "SHA256:"; echo " $(sha256sum </dev/null | cut -d' ' -f1) 0 main/binary-amd64/Packages"
} >"$tmp/binary-only/dists/stable/Release"
gpg_q --local-user mirror@test.invalid --clearsign --output "$tmp/binary-only/dists/stable/InRelease" \
  "$tmp/binary-only/dists/stable/Release"
etc="$(configure mixed)"
deb822_entry "$tmp/mirror" >"$etc/sources.list.d/test.sources"
printf 'deb [signed-by=%s] file:%s stable main\n' "$tmp/mirror-key.gpg" "$tmp/binary-only" \
  "$tmp/mirror-key.gpg" "$tmp/mirror-tampered" >"$etc/sources.list.d/others.list"
run_fetch mixed "$etc"
expect_fetched mixed
grep -q 'note: apt-get update left out' <<<"$err" || fail "mixed: expected apt's warnings as a note, got:"$'\n'"$err"

# 10. No sources at all.
etc="$(configure empty)"
run_fetch empty "$etc"
expect_rejected empty 'no sources configured'

if ((failures)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "all passed"
