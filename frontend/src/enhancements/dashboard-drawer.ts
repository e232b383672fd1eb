/**
 * The dashboard's menu on a phone, a CSS drawer opened by a checkbox: its Menu button is reachable
 * and usable by keyboard and says whether the menu is open; opening moves focus into the menu;
 * Esc (or the overlay) closes it and focus goes back to the button. Without this script the
 * drawer still opens and closes by pointer.
 */
const toggle = document.querySelector<HTMLInputElement>("#dashboard-drawer");
const menuButton = document.querySelector<HTMLElement>("[data-drawer-opener]");
const menu = document.querySelector<HTMLElement>("#dashboard-menu");

if (toggle && menuButton && menu) {
  const drawer = { toggle, opener: menuButton, menu };
  // The Menu button stands for the drawer's checkbox, which is invisible: no tab stop of its own.
  toggle.tabIndex = -1;
  menuButton.tabIndex = 0;
  menuButton.setAttribute("role", "button");
  menuButton.setAttribute("aria-expanded", "false");
  menuButton.setAttribute("aria-controls", menu.id);

  const focusMenu = () => {
    if (drawer.toggle.checked && !drawer.menu.contains(document.activeElement)) {
      drawer.menu.querySelector<HTMLElement>("a, button")?.focus();
    }
  };
  const setOpen = (open: boolean) => {
    drawer.toggle.checked = open;
    drawer.opener.setAttribute("aria-expanded", String(open));
    if (open) focusMenu();
    else drawer.opener.focus();
  };
  // The drawer becomes visible, hence focusable, only once its transition has run.
  menu.parentElement?.addEventListener("transitionend", focusMenu);

  menuButton.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    setOpen(!drawer.toggle.checked);
  });
  // A pointer opens and closes it through the labels; focus follows all the same.
  toggle.addEventListener("change", () => setOpen(drawer.toggle.checked));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && drawer.toggle.checked) setOpen(false);
  });
}
