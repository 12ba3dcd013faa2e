import { Button } from "@/components/ui/Button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "@/components/ui/Card.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { PrizeRows } from "@/components/admin/PrizeRows.tsx";
import { ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { CompetitionNotFound } from "@/components/admin/CompetitionNotFound.tsx";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { usePrizeEditor } from "@/lib/client/admin/use_prize_editor.ts";
import { errorText, isNotFound } from "@/lib/client/admin/admin_api.ts";
import { adminMoney } from "@/lib/client/admin/labels.ts";
import { cn } from "@/lib/client/cn.ts";
import type { Competition, PrizeStructure } from "@/lib/domain/types.ts";

function Editor({ competition, saved }: { competition: Competition; saved: PrizeStructure[] }) {
  const pool = competition.prizePool;
  const editor = usePrizeEditor(
    competition.id,
    pool,
    [...saved].sort((a, b) => a.position - b.position),
  );
  const tone = editor.matches ? "text-success" : "text-destructive";
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Prize positions</CardTitle>
        <CardDescription>
          Each finishing position and the amount it wins. Ties split the prizes of the places they
          cover.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <PrizeRows
          drafts={editor.drafts}
          pool={pool}
          onUpdate={editor.update}
          onRemove={editor.remove}
        />
        <div>
          <Button variant="outline" size="sm" onClick={editor.add}>
            <Icon name="plus" />Add Position
          </Button>
        </div>
        <div
          className="flex flex-col gap-1 rounded-lg border border-border bg-muted/40 p-4"
          aria-live="polite"
        >
          <div className="flex flex-wrap gap-x-8 gap-y-1 text-sm">
            <span>
              Prize pool: <strong className={cn("tabular-nums", tone)}>{adminMoney(pool)}</strong>
            </span>
            <span>
              Total allocated:{" "}
              <strong className={cn("tabular-nums", tone)} data-prize-total="">
                {adminMoney(editor.total)}
              </strong>
            </span>
          </div>
          {!editor.matches && (
            <p className="text-sm text-destructive">
              Prize total doesn't match competition prize pool
            </p>
          )}
        </div>
      </CardContent>
      <CardFooter className="flex-wrap gap-2 border-t border-border pt-6">
        <Button variant="outline" onClick={editor.distribute}>
          <Icon name="wand" />Auto-Distribute
        </Button>
        <Button variant="outline" onClick={editor.fix}>
          <Icon name="check" />Fix Total
        </Button>
        <Button className="ml-auto" disabled={editor.saving} onClick={() => void editor.save()}>
          <Icon name="save" />
          {editor.saving ? "Saving..." : "Save Prize Structure"}
        </Button>
      </CardFooter>
    </Card>
  );
}

/** The Prize Structure screen of a competition. */
export default function AdminPrizeEditor({ id }: { id: number }) {
  const competition = useAdminData<Competition>(`/api/admin/competitions/${id}`);
  const prizes = useAdminData<PrizeStructure[]>(`/api/admin/competitions/${id}/prizes`);
  const failed = competition.error ?? prizes.error;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader
        title="Prize Structure"
        description={competition.data?.name ?? " "}
        actions={<BackButton />}
      />
      {isNotFound(competition.error) && <CompetitionNotFound />}
      {failed && !isNotFound(competition.error) && (
        <ErrorState message={errorText(failed, "Failed to load the prize structure")} />
      )}
      {!failed && (!competition.data || !prizes.data) && <TableSkeleton rows={4} />}
      {competition.data && prizes.data && (
        <Editor competition={competition.data} saved={prizes.data} />
      )}
    </div>
  );
}
