import type { FormEvent } from "react";

import type { components } from "../api/schema";
import { AdminTable, RowActions } from "../components/AdminTable";
import { ErrorSummary, type InputBounds } from "../components/FormErrors";
import { CheckboxField, TextField } from "../components/FormFields";
import { dialog } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { useAdminList } from "../lib/useAdminList";

type Coupon = components["schemas"]["CouponOutput"];

interface Props {
  coupons: Coupon[];
  createUrl: string;
  /** What the coupon API accepts in each field. */
  bounds: InputBounds;
}

type Field = "code" | "discount" | "description" | "maxUses" | "validFrom" | "validUntil";
/** The form's fields in its order, with their labels (the error summary names them so too). */
const LABELS: Record<Field | "isActive" | "oncePerPerson", string> = {
  code: "Coupon Code",
  discount: "Discount %",
  description: "Description",
  isActive: "Active (shown on the home page, accepted at checkout)",
  oncePerPerson: "Once per person",
  maxUses: "Uses in all (empty for no limit)",
  validFrom: "Valid from",
  validUntil: "Valid until",
};
const SUMMARY_FIELDS = Object.entries(LABELS).map(([field, label]) => ({
  field,
  label,
  id: `coupon-${field}`,
}));
const EMPTY = {
  code: "",
  discount: "",
  description: "",
  isActive: true,
  oncePerPerson: false,
  maxUses: "",
  validFrom: "",
  validUntil: "",
};

/** The form's values for `coupon`: each optional limit left empty when it does not apply. */
function formOf(coupon: Coupon): typeof EMPTY {
  return {
    ...coupon,
    discount: String(coupon.discount),
    description: coupon.description ?? "",
    maxUses: coupon.maxUses === null ? "" : String(coupon.maxUses),
    validFrom: coupon.validFrom ?? "",
    validUntil: coupon.validUntil ?? "",
  };
}

/** "Once per person", "100 uses", "from June 1, 2026", "until August 31, 2026": the limits that apply. */
function limits(coupon: Coupon): string {
  const parts = [
    coupon.oncePerPerson && "once per person",
    coupon.maxUses !== null && `${coupon.maxUses} uses`,
    coupon.validFromLabel && `from ${coupon.validFromLabel}`,
    coupon.validUntilLabel && `until ${coupon.validUntilLabel}`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "none";
}

/** Manage Coupons (docs/staff-guide.md, Coupons): one form that adds or, in edit mode, updates; the list below. */
function CouponsAdmin({ coupons: initial, createUrl, bounds }: Props) {
  const list = useAdminList({ initial, createUrl, blank: EMPTY, formOf });
  const { editing, form, setForm, errors, saving } = list;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: Partial<Record<Field, string>> = {};
    if (!form.code.trim()) missing.code = "Please enter a coupon code.";
    if (!form.discount.trim()) missing.discount = "Please enter the discount.";
    list.setErrors(missing);
    if (Object.keys(missing).length) return;
    const body = {
      code: form.code,
      discount: form.discount,
      description: form.description,
      isActive: form.isActive,
      oncePerPerson: form.oncePerPerson,
      maxUses: form.maxUses.trim() || null,
      validFrom: form.validFrom || null,
      validUntil: form.validUntil || null,
    };
    if (await list.save(body, "The coupon was not saved.")) {
      await dialog.fire({ title: "Success", text: "Coupon added/updated successfully", icon: "success" });
    }
  }

  async function remove(coupon: Coupon) {
    if (await list.remove(coupon, "Delete this coupon?", "The coupon was not deleted.")) {
      await dialog.fire({ title: "Deleted", text: "Coupon deleted successfully", icon: "success" });
    }
  }

  function checkbox(field: "isActive" | "oncePerPerson") {
    return (
      <CheckboxField
        id={`coupon-${field}`}
        label={LABELS[field]}
        checked={form[field]}
        onChange={(event) => setForm({ ...form, [field]: event.target.checked })}
      />
    );
  }

  /** The input of `field`, bounded as the API bounds it, with `props` of its own. */
  function input(field: Field, props: Record<string, string | boolean> = {}) {
    return (
      <TextField
        id={`coupon-${field}`}
        label={LABELS[field]}
        error={errors[field]}
        value={form[field]}
        onChange={(event) => setForm({ ...form, [field]: event.target.value })}
        {...bounds[field]}
        {...props}
      />
    );
  }

  return (
    <div className="grid gap-8 lg:grid-cols-[22rem_1fr]">
      <form onSubmit={(event) => void save(event)} noValidate className="card bg-base-100 shadow-md">
        <fieldset disabled={saving} className="card-body gap-3">
          <legend className="card-title">{editing ? `Edit ${editing.code}` : "New coupon"}</legend>
          <ErrorSummary errors={errors} fields={SUMMARY_FIELDS} />
          {input("code", { autoCapitalize: "characters" })}
          {input("discount", { type: "number" })}
          {input("description")}
          {checkbox("isActive")}
          {checkbox("oncePerPerson")}
          {input("maxUses", { type: "number" })}
          {input("validFrom", { type: "date" })}
          {input("validUntil", { type: "date" })}
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
        columns={["Code", "Discount (%)", "Limits"]}
        actions="Actions"
        empty="No coupons found."
        rowKey={(coupon) => coupon.id}
        cells={(coupon) => (
          <>
            <td className="font-mono">
              {coupon.code}
              {!coupon.isActive && <span className="badge badge-ghost ml-2">inactive</span>}
            </td>
            <td>{coupon.discount}</td>
            <td>{limits(coupon)}</td>
            <RowActions
              name={coupon.code}
              onEdit={() => list.edit(coupon)}
              onDelete={() => void remove(coupon)}
            />
          </>
        )}
      />
    </div>
  );
}

mountIslands("coupons-admin", CouponsAdmin);
