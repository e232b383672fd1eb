import { useEffect } from "react";
import toast from "react-hot-toast";

import { mountIslands } from "../lib/islands";
import { ensureToastHost } from "../lib/toaster";

interface ToastMessage {
  kind: "success" | "error" | "info";
  text: string;
}

/** Shows the Django messages of this response (`messages|as_toasts`) as toasts. */
function DjangoMessages({ messages }: { messages: ToastMessage[] }) {
  useEffect(() => {
    ensureToastHost();
    messages.forEach(({ kind, text }, index) => {
      // A fixed id per message, so a repeated effect (React StrictMode in dev) shows it once.
      const options = { id: `django-message-${index}` };
      if (kind === "info") toast(text, options);
      else toast[kind](text, options);
    });
  }, [messages]);
  return null;
}

mountIslands("toasts", DjangoMessages);
