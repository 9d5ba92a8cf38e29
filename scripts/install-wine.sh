#!/usr/bin/env bash
# Installs Debian's 64-bit Wine and the MinGW-w64 cross compilers, for the tests that run the C test
# engine built as a Windows DLL (tests/checkerboard/test_wine_engines.py). Does nothing when they are
# there. 32-bit DLLs would also need wine32:i386 (multiarch); CI does not install it.
set -euo pipefail

if command -v wine >/dev/null 2>&1 && command -v wineserver >/dev/null 2>&1 \
    && command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    echo "install-wine: wine and mingw-w64 are already installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-wine: no apt-get here; install Wine (64-bit) and MinGW-w64 by hand" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# With their recommended packages, as on the machines the tests were run on.
$sudo apt-get install -y -qq wine wine64 mingw-w64
echo "install-wine: installed wine64 and mingw-w64"
