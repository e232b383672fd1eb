import { type ComponentType, StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { readJsonScript } from "./config";

/**
 * Mounts `Component` on every `<div data-island="name">` of the page, with the props the template
 * rendered beside it (json_script, id in `data-props-id`). The server-rendered fallback inside the
 * element is replaced by the component.
 */
export function mountIslands<P extends object>(name: string, Component: ComponentType<P>): void {
  for (const element of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const propsId = element.dataset.propsId;
    const props = propsId ? readJsonScript<P>(propsId) : ({} as P);
    createRoot(element).render(
      <StrictMode>
        <Component {...props} />
      </StrictMode>,
    );
  }
}
