#!/usr/bin/env bash
# Runs before `npm test` (the "pretest" script) and in CI. Beyond npm packages, the suite needs Debian's
# chromium (the survey-taking pages' browser tests drive /usr/bin/chromium through playwright-core) and
# pspp (the .sav exports are read back with it), and a PostgreSQL to run its PostgreSQL half against.
# As root with apt-get, the two programs are installed when missing; otherwise this says exactly what to
# install and stops, before a suite that would fail by the hundred.
set -euo pipefail

missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v pspp >/dev/null 2>&1 || missing+=(pspp)

if ((${#missing[@]} > 0)); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "npm test: installing ${missing[*]} with apt-get" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "npm test needs Debian's ${missing[*]}: run \"sudo apt-get install -y ${missing[*]}\", then npm test again." >&2
    exit 1
  fi
fi

# The PostgreSQL half: the machine's server unless TEST_DATABASE_URL names another (checked there by the suite).
if [[ -z ${TEST_DATABASE_URL:-} ]] && ! timeout 5 bash -c ': </dev/tcp/127.0.0.1/5432' 2>/dev/null; then
  cat >&2 <<'MSG'
npm test needs PostgreSQL on 127.0.0.1:5432 with a database "test" that the user postgres reaches
without a password (Debian: "sudo apt-get install -y postgresql", start it, set "trust" for 127.0.0.1 in
pg_hba.conf, then "sudo -u postgres createdb test"), or TEST_DATABASE_URL=postgres://USER:PASSWORD@HOST:PORT/DB.
"npm run test:sqlite" runs the SQLite half without it.
MSG
  exit 1
fi
