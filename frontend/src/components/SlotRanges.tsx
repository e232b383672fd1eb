import { Fragment } from "react";

import { slotRanges } from "../lib/slots";

/** The slots as ranges, joined by commas: a line breaks between two ranges, never inside one. */
export function SlotRanges({ slots }: { slots: string[] }) {
  return slotRanges(slots).map((range, index) => (
    <Fragment key={range}>
      {index > 0 && ", "}
      <span className="whitespace-nowrap">{range}</span>
    </Fragment>
  ));
}
