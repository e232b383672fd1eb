// Local mode only (local/cards.py says why): completes localstripe's fake Stripe.js.
(function () {
  "use strict";
  var FakeStripe = window.Stripe;

  function ask(body) {
    // The page's settings come after this script: read when the person pays.
    var config = JSON.parse(
      document.getElementById("island-config").textContent,
    );
    return fetch(config.urls.localStripeConfirm, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": config.csrfToken,
      },
      body: JSON.stringify(body),
    }).then(function (answer) {
      return answer.json();
    });
  }

  // Stripe's 3-D Secure test page, where the person completes or fails the authentication.
  function authenticate() {
    return new Promise(function (answered) {
      var dialog = document.createElement("dialog");
      dialog.className = "modal";
      dialog.setAttribute("aria-labelledby", "local-3ds-title");
      dialog.innerHTML =
        '<div class="modal-box flex flex-col gap-3">' +
        '<h2 id="local-3ds-title" class="text-lg font-bold">3D Secure test payment</h2>' +
        "<p>This test card asks for authentication, as the card's bank would.</p>" +
        '<div class="modal-action flex-wrap">' +
        '<button type="button" class="btn" value="fail">Fail authentication</button>' +
        '<button type="button" class="btn btn-primary" value="complete">Complete authentication</button>' +
        "</div></div>";
      dialog.addEventListener("click", function (event) {
        var button = event.target.closest("button");
        if (!button) return;
        dialog.close();
        dialog.remove();
        answered(button.value === "complete");
      });
      dialog.addEventListener("cancel", function () {
        dialog.remove();
        answered(false);
      });
      document.body.appendChild(dialog);
      dialog.showModal();
      dialog.querySelector("[value=complete]").focus();
    });
  }

  var FIELDS = {
    number: ["Card number", "Card number", "1 1 12rem"],
    exp_month: ["Expiry month", "MM", "1 1 3.5rem"],
    exp_year: ["Expiry year", "YY", "1 1 3.5rem"],
    cvc: ["CVC", "CVC", "1 1 4rem"],
    postal_code: ["Postcode", "Postcode", "1 1 6rem"],
  };

  // The fake card element's boxes, named and wrapped to the form's width as Stripe's own card
  // element fits its box (the fake one lays them out in one line, wider than a phone); its
  // postcode box shows only where Stripe's would (`hidePostalCode`).
  function layOut(element, options) {
    var boxes = element._inputs;
    var holder = boxes.number.parentElement;
    Object.assign(holder.style, {
      display: "flex",
      flexWrap: "wrap",
      gap: "0.5rem",
      width: "100%",
    });
    element._domChildren[0].style.flexBasis = "100%"; // the "localstripe:" label, on a line of its own
    Object.keys(FIELDS).forEach(function (field) {
      var box = boxes[field];
      box.setAttribute("aria-label", FIELDS[field][0]);
      box.setAttribute("placeholder", FIELDS[field][1]);
      Object.assign(box.style, {
        flex: FIELDS[field][2],
        minWidth: "0",
        width: "auto",
        padding: "0.25rem 0.5rem",
        border: "1px solid color-mix(in oklab, currentColor 25%, transparent)",
        borderRadius: "0.25rem",
      });
    });
    if (options.hidePostalCode) boxes.postal_code.hidden = true;
  }

  window.Stripe = function (key, options) {
    var stripe = FakeStripe(key, options);
    var makeElements = stripe.elements;
    // React Stripe.js also calls what a real Element has: give the fake one quiet versions.
    stripe.elements = function () {
      var elements = makeElements.apply(this, arguments);
      var create = elements.create;
      elements.create = function (type, options) {
        var element = create.apply(this, arguments);
        element.off = element.off || function () {};
        element.update = element.update || function () {};
        var mount = element.mount;
        element.mount = function () {
          mount.apply(this, arguments);
          layOut(element, options || {});
        };
        return element;
      };
      return elements;
    };
    stripe.confirmCardPayment = async function (clientSecret, data) {
      var card = (data.payment_method.card.value || {}).card || {};
      var result = await ask({ clientSecret: clientSecret, card: card });
      if (
        result.paymentIntent &&
        result.paymentIntent.status === "requires_action"
      ) {
        result = await ask({
          clientSecret: clientSecret,
          authenticated: await authenticate(),
        });
      }
      return result;
    };
    return stripe;
  };
})();
