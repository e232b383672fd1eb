/** The global blob base.html renders once per page (`{% island_config %}`, id "island-config"). */
export interface IslandConfig {
  csrfToken: string;
  /** URLs reversed by Django, by name: islands never hard-code a URL. */
  urls: {
    session: string;
    users: string;
    login: string;
    /** Where the verification link ends: the page saying the address is verified. */
    emailVerified: string;
    /** Local mode only: the page listing the links the emulator would have e-mailed. */
    localAuthLinks?: string;
  };
  firebase: {
    apiKey: string;
    authDomain: string;
    projectId: string;
    /** The local Firebase Auth Emulator's address, or null in production. */
    emulatorUrl: string | null;
  };
}

let cached: IslandConfig | undefined;

export function readJsonScript<T>(id: string): T {
  const element = document.getElementById(id);
  if (!element?.textContent) {
    throw new Error(`The page has no JSON script #${id}.`);
  }
  return JSON.parse(element.textContent) as T;
}

export function islandConfig(): IslandConfig {
  cached ??= readJsonScript<IslandConfig>("island-config");
  return cached;
}
