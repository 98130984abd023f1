#!/bin/sh
# Rebuild ftpress/themes/default/static/age.js, the age library of the "Your view"
# page: typage (the npm package age-encryption) and its dependencies (the @noble and
# @scure libraries), bundled by esbuild into one file with no import and no request
# to any other host. Run it when ftpress is developed, never when a campaign builds
# (a campaign's build needs no Node). Needs node and npm; writes the bundle, the
# licences of what it holds and the versions it was made from.
set -eu
AGE_VERSION=0.3.1
ESBUILD_VERSION=0.28.2
here=$(cd "$(dirname "$0")" && pwd)
static="$here/../ftpress/themes/default/static"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/age-entry.mjs" "$work/entry.mjs"
cd "$work"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund "age-encryption@$AGE_VERSION" "esbuild@$ESBUILD_VERSION"
npx esbuild entry.mjs --bundle --minify --format=iife --target=es2020 \
  --legal-comments=none --outfile=age.js
{
  printf '/*! age-encryption (typage) %s, https://github.com/FiloSottile/typage, BSD-3-Clause;\n' "$AGE_VERSION"
  printf '    with its dependencies, MIT: see age.LICENSE.txt. Built by scripts/build-age-bundle.sh */\n'
  cat age.js
} > "$static/age.js"
{
  for pkg in age-encryption @noble/ciphers @noble/curves @noble/hashes @noble/post-quantum @scure/base; do
    version=$(node -p "require('./node_modules/$pkg/package.json').version")
    printf '== %s %s ==\n\n' "$pkg" "$version"
    cat "node_modules/$pkg/LICENSE"
    printf '\n'
  done
} > "$static/age.LICENSE.txt"
echo "wrote $static/age.js ($(wc -c < "$static/age.js") bytes) and age.LICENSE.txt"
