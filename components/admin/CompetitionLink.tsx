/** A competition on the admin money screens: its name, linked to its page ("(deleted)" if gone). */
export function CompetitionLink({ id, name }: { id: number; name: string | null }) {
  if (name === null) return <span className="text-muted-foreground">(deleted)</span>;
  return (
    <a
      href={`/admin/competitions/edit/${id}`}
      className="font-medium underline-offset-2 hover:underline"
      data-competition-link={id}
    >
      {name}
    </a>
  );
}
