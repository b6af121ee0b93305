package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"

	"arbiter/match"
	"arbiter/store"
)

// sameEvents says where the events evs of a record played from the
// script first differ from the reference run's events ref of the same
// seqs (nil: nowhere). Two plays of one script write the same events but
// for two things each record draws or reads for itself, both hashed since
// the merge of h24c (967d251): the match id in match.new (be2ccab, 16
// random bytes, so that a record cannot be passed off as another match's)
// and the instant each event was received (9499090, received_ns, this
// machine's clock). From event 1 on, then, every hash and every prev of
// one play differs from another's, and the crash test's comparison by
// hash failed every kill at event 1 whatever the record held. So the
// events are compared field by field, the match id of match.new only for
// its form, the receipt only for being recorded; the chain of evs (each
// prev the hash of the event before) is "arbiter verify"'s to check.
func sameEvents(evs, ref []store.Event) error {
	if len(evs) > len(ref) {
		return fmt.Errorf("the log holds %d events, the reference run only %d", len(evs), len(ref))
	}
	for i, e := range evs {
		if what := eventDiffers(e, ref[i]); what != "" {
			return fmt.Errorf("event %d differs from the reference run: %s", e.Seq, what)
		}
	}
	return nil
}

// eventDiffers names the first field in which e differs from want ("":
// none), a match.new's match id compared only for its form.
func eventDiffers(e, want store.Event) string {
	switch {
	case e.Seq != want.Seq:
		return fmt.Sprintf("seq %d, the reference's %d", e.Seq, want.Seq)
	case e.Match != want.Match || e.Game != want.Game:
		return fmt.Sprintf("match %d game %d, the reference's match %d game %d", e.Match, e.Game, want.Match, want.Game)
	case !e.At.Equal(want.At):
		return fmt.Sprintf("its instant %s, the reference's %s", e.At.UTC().Format("15:04:05.000"), want.At.UTC().Format("15:04:05.000"))
	case e.Role != want.Role || e.Actor != want.Actor || e.Kind != want.Kind:
		return fmt.Sprintf("%s %q %s, the reference's %s %q %s", e.Role, e.Actor, e.Kind, want.Role, want.Actor, want.Kind)
	case e.Received.IsZero():
		return "it records no instant of receipt"
	case e.Kind == "match.new":
		return matchNewDiffers(e.Payload, want.Payload)
	case !bytes.Equal(e.Payload, want.Payload):
		return fmt.Sprintf("its payload %s, the reference's %s", e.Payload, want.Payload)
	}
	return ""
}

// matchNewDiffers compares two match.new payloads but for their match
// ids, each of which must be one (match.MatchIDDigits hex digits).
func matchNewDiffers(got, want []byte) string {
	var g, w map[string]any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil {
		return fmt.Sprintf("its payload %s, the reference's %s", got, want)
	}
	for _, p := range []map[string]any{g, w} {
		id, _ := p["match_id"].(string)
		if _, err := hex.DecodeString(id); err != nil || len(id) != match.MatchIDDigits {
			return fmt.Sprintf("match.new's match id %q is not %d hex digits", id, match.MatchIDDigits)
		}
		delete(p, "match_id")
	}
	if !reflect.DeepEqual(g, w) {
		return fmt.Sprintf("its payload %s, the reference's %s", got, want)
	}
	return ""
}
