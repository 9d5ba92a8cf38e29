#!/usr/bin/env bash
# Installs Debian's Chromium at /usr/bin/chromium for the browser tests of the published site
# (tests/report/test_report_browser.py). Playwright (the `test` extra) drives this system browser;
# its own browser download (`playwright install`) is never used. Does nothing when it is there.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
    echo "install-browser: /usr/bin/chromium is already installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: no apt-get here; install Chromium at /usr/bin/chromium by hand" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq chromium
echo "install-browser: installed /usr/bin/chromium"
