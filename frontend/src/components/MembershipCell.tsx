import type { components } from "../api/schema";

type Membership = components["schemas"]["MembershipSummary"];

const BADGES: Record<Membership["status"], string> = {
  pending: "badge-ghost",
  active: "badge-success",
  past_due: "badge-warning",
  cancelled: "badge-ghost",
  expired: "badge-ghost",
};

/**
 * A person's membership as the people lists show it (docs/staff-guide.md, Members): the plan, its
 * state, and the day it renews, or ends when it does not renew or its holder asked to end it; past
 * due, the day its benefits last until. A dash for someone who holds none. A cell of AdminTable's
 * rows, which names it by its column (`data-label`).
 */
export function MembershipCell({
  membership,
  ...cell
}: {
  membership: Membership | null;
  "data-label"?: string;
}) {
  if (!membership) return <td {...cell}>—</td>;
  const renews = membership.renews && !membership.cancelAtPeriodEnd;
  return (
    <td {...cell}>
      <span className="font-medium">{membership.plan.name}</span>{" "}
      <span className={`badge badge-sm ${BADGES[membership.status]}`}>{membership.statusLabel}</span>
      {membership.periodEndLabel && (
        <span className="block text-xs text-base-content/70">
          {renews ? "Renews" : "Ends"} {membership.periodEndLabel}
        </span>
      )}
      {membership.status === "past_due" && membership.graceUntilLabel && (
        <span className="block text-xs">Benefits until {membership.graceUntilLabel}</span>
      )}
    </td>
  );
}
