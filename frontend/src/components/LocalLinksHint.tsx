import { islandConfig } from "../lib/config";

/**
 * Local mode only: where the Firebase Auth Emulator's e-mail links are listed (local/auth_links.py),
 * since it sends no mail. Nothing in production, where the link arrives by e-mail.
 */
export function LocalLinksHint() {
  const localLinks = islandConfig().urls.localAuthLinks;
  if (!localLinks) return null;
  return (
    <p className="text-sm">
      Local mode: the link is on the{" "}
      <a className="link" href={localLinks}>
        page of sign-in links
      </a>
      .
    </p>
  );
}
