package match

import "testing"

// TestACommandSharesTheMatchWithTheStateBeforeItUnlessItChangesIt: the
// state after a command that does not change the match (a move) holds the
// very match of the state before it, not a copy (a command's working copy
// of the state copied it at every command: docs/performance.md, "Commit and
// move, ninth pass"); an event that changes it (a replacement of the
// operator or of the arbiter) changes a copy, and the state handed out
// before it keeps the match as it was.
func TestACommandSharesTheMatchWithTheStateBeforeItUnlessItChangesIt(t *testing.T) {
	for _, tc := range []struct {
		name, kind string
		role       Role
		who        func(m *Match) string
	}{
		{"the operator replaced", "operator-replaced", RoleOperator, func(m *Match) string { return m.Operator }},
		{"the arbiter replaced", "arbiter-replaced", RoleArbiter, func(m *Match) string { return m.Arbiter }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.start()
			before := r.app.State()
			r.move(m, "e4")
			if after := r.app.State(); after.Match != before.Match {
				t.Errorf("the state after a move holds a copy of the match; want the state's before it")
			}
			was := tc.who(before.Match)
			_, err := r.app.Incident(r.ctx, r.as(tc.role, 0), tc.kind, IncidentArgs{Text: "shift change", Name: "Joe Hoane"})
			r.ok(err)
			if got := tc.who(r.app.State().Match); got != "Joe Hoane" {
				t.Errorf("after %s the match names %q; want Joe Hoane", tc.kind, got)
			}
			if got := tc.who(before.Match); got != was {
				t.Errorf("after %s the state handed out before it names %q; want %q as it was", tc.kind, got, was)
			}
			if _, err := r.app.Move(r.ctx, r.as(RoleArbiter, m), "e5", false); err != nil {
				t.Fatal(err)
			}
			if got := tc.who(r.app.State().Match); got != "Joe Hoane" {
				t.Errorf("after the next move the match names %q; want Joe Hoane", got)
			}
		})
	}
}
