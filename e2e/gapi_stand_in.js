// A stand-in for https://apis.google.com/js/api.js, which these machines cannot reach: just enough
// of gapi (gapi.load, gapi.iframes over window.postMessage) for Firebase Auth's popup sign-in with
// the Auth Emulator, where the SDK's page and the emulator's helper iframe both load it.
(function () {
  const TAG = "gapi-stand-in";
  const replies = {};
  let sent = 0;

  function channel(peer) {
    const handlers = {};
    const early = {}; // messages that came before their handler was registered
    function answer(source, message) {
      const response = handlers[message.name](message.payload);
      source.postMessage({ tag: TAG, kind: "reply", id: message.id, responses: [response] }, "*");
    }
    window.addEventListener("message", (event) => {
      const message = event.data;
      if (!message || message.tag !== TAG || event.source !== peer()) return;
      if (message.kind === "reply") {
        replies[message.id]?.(message.responses);
        delete replies[message.id];
      } else if (handlers[message.name]) {
        answer(event.source, message);
      } else {
        (early[message.name] ||= []).push([event.source, message]);
      }
    });
    return {
      register(name, handler) {
        handlers[name] = handler;
        for (const [source, message] of early[name] || []) answer(source, message);
        delete early[name];
      },
      send(name, payload, callback) {
        const id = `${TAG}-${++sent}-${Math.random()}`;
        if (callback) replies[id] = callback;
        peer().postMessage({ tag: TAG, kind: "send", name, payload, id }, "*");
      },
    };
  }

  window.gapi = {
    load(_module, options) {
      setTimeout(typeof options === "function" ? options : options.callback, 0);
    },
    iframes: {
      CROSS_ORIGIN_IFRAMES_FILTER: () => true,
      getContext: () => ({
        open(options, onOpened) {
          const frame = document.createElement("iframe");
          Object.assign(frame.style, options.attributes?.style || {});
          const loaded = new Promise((resolve) => frame.addEventListener("load", resolve));
          frame.src = options.url;
          options.where.appendChild(frame);
          const iframe = {
            ...channel(() => frame.contentWindow),
            restyle: () => Promise.resolve(),
            ping: (callback) => loaded.then(callback),
          };
          return Promise.resolve(onOpened ? onOpened(iframe) : iframe);
        },
        getParentIframe: () => channel(() => window.parent),
      }),
    },
  };

  const onload = new URL(document.currentScript.src).searchParams.get("onload");
  const ready = onload ? window[onload] : window.gapi_onload;
  if (ready) setTimeout(ready, 0);
})();
