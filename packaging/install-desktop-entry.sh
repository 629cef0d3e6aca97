#!/bin/sh
# Adds HybridLab to this user's desktop menu: the entry starts hybridgui from the folder this script is in
# (run it again after moving the folder).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
mkdir -p "$apps"
sed "s|^Exec=hybridgui|Exec=\"$here/hybridgui\"|" "$here/hybridlab.desktop" > "$apps/hybridlab.desktop"
echo "added $apps/hybridlab.desktop"
