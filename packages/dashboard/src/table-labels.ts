import { SafeHtml } from "./html";

// On a phone the dashboard's tables stack: each row becomes a card and each cell shows its
// column's name above its value (styles.ts). The names come from the table's own header
// cells, copied into `data-label` here, so no page repeats them and none can forget them.

const TABLE = /<table\b[^>]*>[\s\S]*?<\/table>/g;
const HEADER = /<th\b[^>]*>([\s\S]*?)<\/th>/g;

/** Text of a header cell: its markup dropped (it is our own, already escaped, text). */
function headerText(cell: string): string {
  return cell.replace(/<[^>]*>/g, "").trim();
}

function labelRows(table: string): string {
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(table);
  if (!head) return table;
  const labels = [...head[1]!.matchAll(HEADER)].map((m) => headerText(m[1]!));
  return table.replace(/<tbody>([\s\S]*?)<\/tbody>/, (_all, body: string) => {
    const rows = body.split(/(?=<tr>)/).map((row) => {
      let column = 0;
      // A row's header cell (`<th scope="row">`) takes its column too, unlabelled.
      return row.replace(/<t([dh])(?=[\s>])/g, (cell, kind: string) => {
        const label = labels[column++];
        return label && kind === "d" ? `${cell} data-label="${label}"` : cell;
      });
    });
    return `<tbody>${rows.join("")}</tbody>`;
  });
}

/**
 * Gives every body cell of every table in `content` a `data-label` with its column's header
 * text (a cell spanning the row, such as "No keys yet", gets the first one; styles hide it).
 */
export function labelTableCells(content: SafeHtml): SafeHtml {
  return new SafeHtml(content.value.replace(TABLE, labelRows));
}
