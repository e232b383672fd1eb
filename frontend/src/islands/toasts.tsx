import { useEffect } from "react";

import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

interface ToastMessage {
  kind: "success" | "error" | "info";
  text: string;
}

/** Shows the Django messages of this response (`messages|as_toasts`) as toasts. */
function DjangoMessages({ messages }: { messages: ToastMessage[] }) {
  useEffect(() => {
    messages.forEach(({ kind, text }, index) => {
      // A fixed id per message, so a repeated effect (React StrictMode in dev) shows it once.
      const options = { id: `django-message-${index}` };
      if (kind === "error") notify.failure(text, undefined, options);
      else notify[kind](text, options);
    });
  }, [messages]);
  return null;
}

mountIslands("toasts", DjangoMessages);
