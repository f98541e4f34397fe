// The deal detail page (spec 001 §2.1), shared by admins and partners: the main island (header, tabs,
// 'Aperçu', 'Paramètres', admin settings) and the 'Présentation' tab's island in its slot.
import { Island } from "../../Island.tsx";
import DealDetail from "../../../islands/DealDetail.tsx";
import { PresentationSlot } from "./PresentationSlot.tsx";
import type { DealDetailProps } from "./types.ts";

export function DealPage(props: DealDetailProps) {
  return (
    <div class="mx-auto max-w-7xl pb-10">
      <Island component={DealDetail} props={props} />
      <PresentationSlot deal={props.deal} role={props.role} />
    </div>
  );
}
