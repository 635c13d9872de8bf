// HTTP headers as a table of name and value, in the order they came (a name may repeat).
export function HeadersTable({ headers, className, testId }: { headers: [string, string][]; className: string; testId?: string }) {
  return (
    <table className={className} data-testid={testId}>
      <tbody>
        {headers.map(([k, v], i) => (
          <tr key={`${k}-${i}`}>
            <th>{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
