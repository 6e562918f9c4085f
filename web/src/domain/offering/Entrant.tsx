import './offering.css';

/** Who entered an offering, as ops lists show it: the member's name and login account (phone). */
export function Entrant({ member }: { member?: { account: string; name: string } }) {
  if (!member) return null;
  return (
    <span className="offering-entrant" data-testid="ops-entrant" data-account={member.account}>
      {member.name !== '' && <span data-text="data">{member.name}</span>}
      <span className="num muted">{member.account}</span>
    </span>
  );
}
