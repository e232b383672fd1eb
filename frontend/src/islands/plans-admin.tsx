import type { FormEvent } from "react";

import type { components } from "../api/schema";
import { authorisedFetch } from "../lib/api";
import { AdminTable, RowActions } from "../components/AdminTable";
import { ErrorSummary, type InputBounds } from "../components/FormErrors";
import { CheckboxField, SelectField, TextField } from "../components/FormFields";
import { dialog } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";
import { useAdminList } from "../lib/useAdminList";

type Plan = components["schemas"]["PlanOutput"];

interface Props {
  plans: Plan[];
  createUrl: string;
  /** What the plan API accepts in each field. */
  bounds: InputBounds;
}

type Text =
  | "name"
  | "description"
  | "price"
  | "seasonStartsOn"
  | "seasonEndsOn"
  | "memberPriceValue"
  | "bookingWindowDays"
  | "openBookingsLimit"
  | "hoursPerDay"
  | "hoursPerWeek"
  | "peakHoursPerWeek";
type Choice = "period" | "memberPriceKind";
type Tick = "renewsAutomatically" | "onSale" | "membersOnlyHours";
/** The limits a plan may set, each empty for the club's own rule, with what one is said as. */
const LIMITS: [Text, string][] = [
  ["bookingWindowDays", "books {} days ahead"],
  ["openBookingsLimit", "{} open bookings"],
  ["hoursPerDay", "{} h a day"],
  ["hoursPerWeek", "{} h a week"],
  ["peakHoursPerWeek", "{} peak h a week"],
];
/** The form's fields in its order, with their labels (the error summary names them so too). */
const LABELS: Record<Text | Choice | Tick, string> = {
  name: "Plan Name",
  description: "Description",
  price: "Price ($)",
  period: "Period",
  seasonStartsOn: "Season starts on",
  seasonEndsOn: "Season ends on",
  renewsAutomatically: "Renews automatically",
  onSale: "On sale",
  memberPriceKind: "Member price per slot",
  memberPriceValue: "Member price ($ or % off)",
  bookingWindowDays: "Booking window (days)",
  openBookingsLimit: "Open bookings at once",
  hoursPerDay: "Hours per day",
  hoursPerWeek: "Hours per week",
  peakHoursPerWeek: "Peak hours per week",
  membersOnlyHours: "Books the members-only hours",
};
const PERIODS = { monthly: "Monthly", yearly: "Yearly", season: "Season" };
const MEMBER_PRICES = { none: "The court's price", fixed: "A fixed price", percent: "A percent off" };
const SUMMARY_FIELDS = Object.entries(LABELS).map(([field, label]) => ({
  field,
  label,
  id: `plan-${field}`,
}));
const EMPTY = {
  name: "",
  description: "",
  price: "",
  period: "monthly",
  seasonStartsOn: "",
  seasonEndsOn: "",
  renewsAutomatically: true,
  onSale: true,
  memberPriceKind: "none",
  memberPriceValue: "",
  bookingWindowDays: "",
  openBookingsLimit: "",
  hoursPerDay: "",
  hoursPerWeek: "",
  peakHoursPerWeek: "",
  membersOnlyHours: false,
};
type Form = typeof EMPTY;

const text = (value: string | number | null) => (value === null ? "" : String(value));

/** The form's values for `plan`: each limit left empty when the club's rule applies. */
function formOf(plan: Plan): Form {
  return {
    name: plan.name,
    description: plan.description,
    price: plan.price,
    period: plan.period,
    seasonStartsOn: text(plan.seasonStartsOn),
    seasonEndsOn: text(plan.seasonEndsOn),
    renewsAutomatically: plan.renewsAutomatically,
    onSale: plan.onSale,
    memberPriceKind: plan.memberPriceKind,
    memberPriceValue: text(plan.memberPriceValue),
    bookingWindowDays: text(plan.bookingWindowDays),
    openBookingsLimit: text(plan.openBookingsLimit),
    hoursPerDay: text(plan.hoursPerDay),
    hoursPerWeek: text(plan.hoursPerWeek),
    peakHoursPerWeek: text(plan.peakHoursPerWeek),
    membersOnlyHours: plan.membersOnlyHours,
  };
}

/** "20% off, 6 h a week, members-only hours": what a plan gives, or the club's rules. */
function benefits(plan: Plan): string {
  const price =
    plan.memberPriceKind === "fixed"
      ? `$${plan.memberPriceValue} a slot`
      : plan.memberPriceKind === "percent"
        ? `${Number(plan.memberPriceValue)}% off`
        : null;
  const parts = [
    price,
    ...LIMITS.map(([field, said]) => (plan[field] === null ? null : said.replace("{}", String(plan[field])))),
    plan.membersOnlyHours && "members-only hours",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "the club's rules";
}

/** "Monthly, renews", "Season: May 1, 2027 to September 30, 2027". */
function period(plan: Plan): string {
  if (plan.period === "season") return `Season: ${plan.seasonStartsOnLabel} to ${plan.seasonEndsOnLabel}`;
  return `${PERIODS[plan.period]}${plan.renewsAutomatically ? ", renews" : ""}`;
}

/** Membership Plans (docs/staff-guide.md, Membership plans): one form that adds or, in edit mode, updates; the list beside. */
function PlansAdmin({ plans: initial, createUrl, bounds }: Props) {
  const list = useAdminList({ initial, createUrl, blank: EMPTY, formOf });
  const { editing, form, setForm, errors, saving } = list;
  const season = form.period === "season";

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: Partial<Record<Text, string>> = {};
    if (!form.name.trim()) missing.name = "Please enter the plan's name.";
    if (!form.price.trim()) missing.price = "Please enter the price.";
    list.setErrors(missing);
    if (Object.keys(missing).length) return;
    const orNull = (value: string) => value.trim() || null;
    const body = {
      name: form.name,
      description: form.description,
      price: form.price,
      period: form.period,
      seasonStartsOn: season ? orNull(form.seasonStartsOn) : null,
      seasonEndsOn: season ? orNull(form.seasonEndsOn) : null,
      renewsAutomatically: !season && form.renewsAutomatically,
      onSale: form.onSale,
      memberPriceKind: form.memberPriceKind,
      memberPriceValue: form.memberPriceKind === "none" ? null : orNull(form.memberPriceValue),
      ...Object.fromEntries(LIMITS.map(([field]) => [field, orNull(form[field])])),
      membersOnlyHours: form.membersOnlyHours,
    };
    if (await list.save(body, "The plan was not saved.")) {
      await dialog.fire({ title: "Success", text: "Plan added/updated successfully", icon: "success" });
    }
  }

  async function remove(plan: Plan) {
    if (await list.remove(plan, `Delete the plan ${plan.name}?`, "The plan was not deleted.")) {
      await dialog.fire({ title: "Deleted", text: "Plan deleted successfully", icon: "success" });
    }
  }

  async function toggleSale(plan: Plan) {
    try {
      list.replace(
        await authorisedFetch<Plan>(plan.url, { method: "PATCH", body: { onSale: !plan.onSale } }),
      );
      notify.success(plan.onSale ? `${plan.name} is off sale.` : `${plan.name} is on sale.`);
    } catch (error) {
      notify.failure("The plan was not changed.", error);
    }
  }

  function checkbox(field: Tick, disabled = false) {
    return (
      <CheckboxField
        id={`plan-${field}`}
        label={LABELS[field]}
        checked={form[field] && !disabled}
        disabled={disabled}
        onChange={(event) => setForm({ ...form, [field]: event.target.checked })}
      />
    );
  }

  /** The input of `field`, bounded as the API bounds it, with `props` of its own. */
  function input(field: Text, props: Record<string, string | boolean> = {}) {
    return (
      <TextField
        id={`plan-${field}`}
        label={LABELS[field]}
        error={errors[field]}
        value={form[field]}
        onChange={(event) => setForm({ ...form, [field]: event.target.value })}
        {...bounds[field]}
        {...props}
      />
    );
  }

  function select(field: Choice, options: Record<string, string>) {
    return (
      <SelectField
        id={`plan-${field}`}
        label={LABELS[field]}
        error={errors[field]}
        options={options}
        value={form[field]}
        onChange={(event) => setForm({ ...form, [field]: event.target.value })}
      />
    );
  }

  return (
    <div className="grid gap-8 lg:grid-cols-[24rem_1fr]">
      <form onSubmit={(event) => void save(event)} noValidate className="card bg-base-100 shadow-md">
        <fieldset disabled={saving} className="card-body gap-3">
          <legend className="card-title">{editing ? `Edit ${editing.name}` : "New plan"}</legend>
          <ErrorSummary errors={errors} fields={SUMMARY_FIELDS} />
          {input("name")}
          {input("description")}
          {input("price", { type: "number", inputMode: "decimal" })}
          {select("period", PERIODS)}
          {season && input("seasonStartsOn", { type: "date" })}
          {season && input("seasonEndsOn", { type: "date" })}
          {checkbox("renewsAutomatically", season)}
          {checkbox("onSale")}
          <p className="text-sm opacity-70">Benefits: a limit left empty is the club's rule.</p>
          {select("memberPriceKind", MEMBER_PRICES)}
          {form.memberPriceKind !== "none" &&
            input("memberPriceValue", { type: "number", inputMode: "decimal" })}
          {LIMITS.map(([field]) => (
            <div key={field}>{input(field, { type: "number", inputMode: "numeric" })}</div>
          ))}
          {checkbox("membersOnlyHours")}
          <div className="flex gap-2">
            <button type="submit" className="btn btn-primary">
              {editing ? "Update" : "Add"}
            </button>
            {editing && (
              <button type="button" className="btn" onClick={() => list.edit(null)}>
                Cancel
              </button>
            )}
          </div>
        </fieldset>
      </form>
      <AdminTable
        rows={list.rows}
        numbered
        columns={["Plan", "Period", "Price", "Benefits"]}
        actions="Actions"
        empty="No membership plans yet: add the first with the form."
        rowKey={(plan) => plan.id}
        cells={(plan) => (
          <>
            <td>
              {plan.name}
              {!plan.onSale && <span className="badge badge-ghost ml-2">off sale</span>}
            </td>
            <td>{period(plan)}</td>
            <td>${plan.price}</td>
            <td>{benefits(plan)}</td>
            <RowActions name={plan.name} onEdit={() => list.edit(plan)} onDelete={() => void remove(plan)}>
              <button
                type="button"
                className="btn btn-sm"
                onClick={() => void toggleSale(plan)}
                aria-label={`${plan.onSale ? "Take off sale" : "Put on sale"} ${plan.name}`}
              >
                {plan.onSale ? "Take off sale" : "Put on sale"}
              </button>
            </RowActions>
          </>
        )}
      />
    </div>
  );
}

mountIslands("plans-admin", PlansAdmin);
