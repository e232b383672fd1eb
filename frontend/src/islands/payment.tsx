import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe } from "@stripe/stripe-js";
import { type FormEvent, useEffect, useMemo, useState } from "react";

import type { components } from "../api/schema";
import { ApiError, authorisedFetch } from "../lib/api";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

interface Props {
  price: string;
  userEmail: string;
  publishableKey: string;
  /** Where a coupon is priced: a booking's payment takes coupons, a membership's does not. */
  quoteUrl?: string;
  intentUrl: string;
  /** What the intent is asked for: the booking, the plan, or nothing (a renewal). */
  intentBody: Record<string, unknown>;
  saveUrl: string;
  doneUrl: string;
}

type Quote = components["schemas"]["Quote"];
type ClientSecret = components["schemas"]["ClientSecret"];
type PaymentIntentInput = components["schemas"]["PaymentIntentInputRequest"];
type QuoteInput = components["schemas"]["QuoteInputRequest"];

/**
 * The card form of the payment pages (docs/rules.md, Payments and refunds; Memberships). The server
 * prices what is paid for (a booking with a coupon, if one is applied; a membership's period),
 * creates the PaymentIntent, and after Stripe confirms the card payment it checks the payment with
 * Stripe itself before it records it.
 */
function PaymentForm({ price, userEmail, quoteUrl, intentUrl, intentBody, saveUrl, doneUrl }: Props) {
  const stripe = useStripe();
  const elements = useElements();
  const [quote, setQuote] = useState<Quote>({
    price,
    couponCode: "",
    discount: 0,
    total: price,
    totalInCents: Math.round(Number(price) * 100),
  });
  const [code, setCode] = useState("");
  const [couponError, setCouponError] = useState("");
  // The intent's secret, with the total and coupon it was made for: the Pay button may only use the
  // secret of the total it shows, never one left over from before a coupon changed it.
  const [intent, setIntent] = useState<{ forQuote: string; secret: string } | null>(null);
  const quoteKey = `${quote.totalInCents}:${quote.couponCode}`;
  const clientSecret = intent?.forQuote === quoteKey ? intent.secret : "";
  const [cardError, setCardError] = useState("");
  const [busy, setBusy] = useState(false);

  // A payment secret for the current total: asked again when a coupon changes the total.
  useEffect(() => {
    let current = true;
    // A booking's payment says the total it shows, which the server must agree with.
    const terms = quoteUrl
      ? ({
          amountInCents: quote.totalInCents,
          couponCode: quote.couponCode,
        } satisfies Partial<PaymentIntentInput>)
      : {};
    authorisedFetch<ClientSecret>(intentUrl, { method: "POST", body: { ...intentBody, ...terms } })
      .then(({ clientSecret: secret }) => current && setIntent({ forQuote: quoteKey, secret }))
      .catch((error: unknown) => {
        if (current) notify.failure("Failed to initiate payment.", error);
      });
    return () => {
      current = false;
    };
  }, [intentUrl, intentBody, quoteUrl, quote.totalInCents, quote.couponCode, quoteKey]);

  async function applyCoupon() {
    if (!quoteUrl) return;
    setCouponError("");
    try {
      const next = await authorisedFetch<Quote>(quoteUrl, {
        method: "POST",
        body: { couponCode: code } satisfies QuoteInput,
      });
      // A refusal was for the amount it was asked to pay; a new amount is a new attempt.
      if (next.totalInCents !== quote.totalInCents) setCardError("");
      setQuote(next);
    } catch (error) {
      setCouponError(
        error instanceof ApiError ? error.message : "The coupon could not be checked. Please try again.",
      );
    }
  }

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || !clientSecret || busy) return; // not ready yet: ignore the click
    setBusy(true);
    setCardError("");
    try {
      const result = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: { email: userEmail } },
      });
      if (result.error) {
        const refusal = result.error.message ?? "The card was refused.";
        setCardError(refusal);
        notify.failure(refusal, undefined, { alsoOnThePage: true });
        return;
      }
      if (result.paymentIntent?.status !== "succeeded") throw new Error(result.paymentIntent?.status);
      await authorisedFetch(saveUrl, {
        method: "POST",
        body: { paymentIntentId: result.paymentIntent.id },
      });
      notify.success("🎉 Payment successful!");
      window.setTimeout(() => window.location.assign(doneUrl), 1200);
    } catch (error) {
      // The server says why a payment did not count (a coupon no longer valid, say: then refunded).
      notify.failure("Something went wrong with payment", error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-5">
      {quoteUrl && (
        <div className="flex flex-col gap-1">
          <label htmlFor="coupon-code" className="font-medium">
            Coupon code
          </label>
          <div className="flex gap-2">
            <input
              id="coupon-code"
              className="input w-full"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              aria-invalid={couponError ? true : undefined}
              aria-describedby={couponError ? "coupon-error" : quote.discount ? "coupon-applied" : undefined}
            />
            <button
              type="button"
              className="btn"
              onClick={() => void applyCoupon()}
              disabled={busy || !code.trim()}
            >
              Apply
            </button>
          </div>
          {couponError && (
            <p id="coupon-error" className="text-sm text-error">
              {couponError}
            </p>
          )}
          {quote.discount > 0 && !couponError && (
            <p id="coupon-applied" className="text-sm text-success">
              {quote.couponCode}: {quote.discount}% off. New total ${quote.total}.
            </p>
          )}
        </div>
      )}
      <form onSubmit={(event) => void pay(event)} className="flex flex-col gap-4">
        <div>
          <span id="card-label" className="font-medium">
            Card
          </span>
          <div className="input w-full h-auto flex-wrap py-3" role="group" aria-labelledby="card-label">
            <CardElement options={{ hidePostalCode: true }} onChange={() => setCardError("")} />
          </div>
          {cardError && (
            <p role="alert" className="text-sm text-error mt-1">
              {cardError}
            </p>
          )}
        </div>
        <button type="submit" className="btn btn-primary" disabled={!stripe || !clientSecret || busy}>
          {busy ? "Processing..." : `Pay $${quote.total}`}
        </button>
      </form>
    </div>
  );
}

function Payment(props: Props) {
  const stripePromise = useMemo(() => loadStripe(props.publishableKey), [props.publishableKey]);
  return (
    <Elements stripe={stripePromise}>
      <PaymentForm {...props} />
    </Elements>
  );
}

mountIslands("payment", Payment);
