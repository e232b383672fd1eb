"""How this project starts Chromium: the system one (Debian's packages), never a downloaded build,
with no background traffic (these machines reach nothing but the package registries)."""

# The benchmarks measure pages in the browser people use.
EXECUTABLE = "/usr/bin/chromium"
# The browser tests drive the same Chromium build without its browser shell (Debian's package
# chromium-headless-shell, the headless mode Playwright itself runs tests in): it renders the same
# pages with about a third less CPU, a third of the browser tests' time on two cores.
TESTS_EXECUTABLE = "/usr/bin/chromium-headless-shell"
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
