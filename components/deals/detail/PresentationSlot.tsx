// Where the 'Présentation' tab (spec 001 §2.3) goes: its own island, islands/DealPresentation.tsx,
// in a container the page's main island shows while the tab is open (hidden until then).
import { Island } from "../../Island.tsx";
import DealPresentation, { type DealPresentationProps } from "../../../islands/DealPresentation.tsx";
import { PRESENTATION_SLOT_ID } from "./tabs.ts";

export function PresentationSlot(props: DealPresentationProps) {
  return (
    <div
      id={PRESENTATION_SLOT_ID}
      data-deal-id={props.deal.id}
      role="tabpanel"
      aria-labelledby="deal-tab-link-description"
      hidden
    >
      <Island component={DealPresentation} props={props} />
    </div>
  );
}
