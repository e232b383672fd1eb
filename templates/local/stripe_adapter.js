// Local mode only (local/cards.py says why): completes localstripe's fake Stripe.js.
(function () {
  "use strict";
  var FakeStripe = window.Stripe;

  window.Stripe = function (key, options) {
    var stripe = FakeStripe(key, options);
    var makeElements = stripe.elements;
    // React Stripe.js also calls what a real Element has: give the fake one quiet versions.
    stripe.elements = function () {
      var elements = makeElements.apply(this, arguments);
      var create = elements.create;
      elements.create = function () {
        var element = create.apply(this, arguments);
        element.off = element.off || function () {};
        element.update = element.update || function () {};
        return element;
      };
      return elements;
    };
    stripe.confirmCardPayment = async function (clientSecret, data) {
      var card = (data.payment_method.card.value || {}).card || {};
      var config = JSON.parse(document.getElementById("island-config").textContent);
      var confirmed = await fetch(config.urls.localStripeConfirm, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": config.csrfToken },
        body: JSON.stringify({ clientSecret: clientSecret, card: card }),
      });
      return confirmed.json();
    };
    return stripe;
  };
})();
