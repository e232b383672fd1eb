"""How this project starts Chromium: the system one (Debian's package), never a downloaded build,
with no background traffic (these machines reach nothing but the package registries)."""

EXECUTABLE = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
