import { type FormEvent, useState } from "react";
import Swal from "sweetalert2";

import { AdminTable, RowActions } from "../components/AdminTable";
import { authorisedFetch } from "../lib/api";
import { confirmDeletion, fieldErrors } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";

interface Coupon {
  id: number;
  code: string;
  discount: number;
  description: string;
  isActive: boolean;
  url: string;
}

interface Props {
  coupons: Coupon[];
  createUrl: string;
}

type Field = "code" | "discount" | "description";
const EMPTY = { code: "", discount: "", description: "", isActive: true };

/** Manage Coupons (spec §2, §5): one form that adds or, in edit mode, updates; the list below. */
function CouponsAdmin({ coupons: initial, createUrl }: Props) {
  const [coupons, setCoupons] = useState(initial);
  const [editing, setEditing] = useState<Coupon | null>(null);
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);

  function edit(coupon: Coupon | null) {
    setEditing(coupon);
    setForm(coupon ? { ...coupon, discount: String(coupon.discount) } : EMPTY);
    setErrors({});
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: Partial<Record<Field, string>> = {};
    if (!form.code.trim()) missing.code = "Please enter a coupon code.";
    if (!form.discount.trim()) missing.discount = "Please enter the discount.";
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setSaving(true);
    try {
      const saved = await authorisedFetch<Coupon>(editing ? editing.url : createUrl, {
        method: editing ? "PATCH" : "POST",
        body: { code: form.code, discount: form.discount, description: form.description, isActive: form.isActive },
      });
      setCoupons((current) => (editing ? current.map((c) => (c.id === saved.id ? saved : c)) : [...current, saved]));
      edit(null);
      await Swal.fire({ title: "Success", text: "Coupon added/updated successfully", icon: "success" });
    } catch (error) {
      const errors = fieldErrors(error);
      setErrors(errors);
      if (Object.keys(errors).length === 0) {
        await Swal.fire({ title: "That did not work", text: "Please try again.", icon: "error" });
      }
    } finally {
      setSaving(false);
    }
  }

  async function remove(coupon: Coupon) {
    if (!(await confirmDeletion("Delete this coupon?"))) return;
    try {
      await authorisedFetch(coupon.url, { method: "DELETE" });
    } catch {
      await Swal.fire({ title: "That did not work", text: "The coupon was not deleted.", icon: "error" });
      return;
    }
    setCoupons((current) => current.filter((c) => c.id !== coupon.id));
    if (editing?.id === coupon.id) edit(null);
    await Swal.fire({ title: "Deleted", text: "Coupon deleted successfully", icon: "success" });
  }

  function input(field: Field, label: string, props: Record<string, string | boolean> = {}) {
    const id = `coupon-${field}`;
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <input
          id={id}
          className="input w-full"
          value={form[field]}
          onChange={(event) => setForm({ ...form, [field]: event.target.value })}
          aria-invalid={errors[field] ? true : undefined}
          aria-describedby={errors[field] ? `${id}-error` : undefined}
          {...props}
        />
        {errors[field] && (
          <p id={`${id}-error`} className="text-sm text-error">
            {errors[field]}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="grid gap-8 lg:grid-cols-[22rem_1fr]">
      <form onSubmit={(event) => void save(event)} noValidate className="card bg-base-100 shadow-md">
        <fieldset disabled={saving} className="card-body gap-3">
          <legend className="card-title">{editing ? `Edit ${editing.code}` : "New coupon"}</legend>
          {input("code", "Coupon Code", { required: true, autoCapitalize: "characters" })}
          {input("discount", "Discount %", { required: true, type: "number", min: "1", max: "100", step: "1" })}
          {input("description", "Description")}
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={form.isActive}
              onChange={(event) => setForm({ ...form, isActive: event.target.checked })}
            />
            Active (shown on the home page, accepted at checkout)
          </label>
          <div className="flex gap-2">
            <button type="submit" className="btn btn-primary">
              {editing ? "Update" : "Add"}
            </button>
            {editing && (
              <button type="button" className="btn" onClick={() => edit(null)}>
                Cancel
              </button>
            )}
          </div>
        </fieldset>
      </form>
      <AdminTable
        rows={coupons}
        numbered
        columns={["Code", "Discount (%)"]}
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
            <RowActions name={coupon.code} onEdit={() => edit(coupon)} onDelete={() => void remove(coupon)} />
          </>
        )}
      />
    </div>
  );
}

mountIslands("coupons-admin", CouponsAdmin);
