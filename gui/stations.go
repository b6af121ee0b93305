package gui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/service"
)

// Match → Stations… (docs/stations.md, docs/console.md): this station, its
// role, the authority, the members with up and lag, the clock's offset and
// uncertainty, re-read from the station's status file twice a second while
// the dialog is open; and Invite…, which writes an invitation for another
// station with the arbiter's credential the console holds.

// stationsEvery is how often the open dialog re-reads the status file (the
// running station rewrites it every 250 ms).
const stationsEvery = 500 * time.Millisecond

// stationsView is the Stations dialog. Like the correction dialog it holds
// no console: it shows the status lines it is given (show) and tells
// onInvite when Invite… is tapped and onClose when it closed (Close or
// Escape).
type stationsView struct {
	d      dialog.Dialog
	box    *fyne.Container
	invite *widget.Button
	// lines are the lines shown: show redraws only when they change
	lines []string
}

// newStationsView builds the dialog in win, empty; the caller shows v.d.
func newStationsView(win fyne.Window, onInvite, onClose func()) *stationsView {
	v := &stationsView{box: container.NewVBox()}
	v.invite = widget.NewButton(translate("Invite…"), onInvite)
	content := container.NewBorder(nil, v.invite, nil, nil, container.NewVScroll(v.box))
	v.d = dialog.NewCustom(translate("Stations"), translate("Close"), content, win)
	v.d.Resize(fyne.NewSize(620, 460))
	v.d.SetOnClosed(onClose)
	return v
}

// show shows lines, one label each, and enables Invite… if canInvite.
func (v *stationsView) show(lines []string, canInvite bool) {
	enable(v.invite, canInvite)
	showLines(v.box, &v.lines, lines)
}

func (c *console) recordPath() string { return c.core.DB().Path() }

// stationsLines is what the dialog shows of the record at path at now
// (timeOfDay writes an instant as the console shows a time of day).
func stationsLines(path string, now time.Time, timeOfDay func(time.Time) string) (lines []string, isStation bool) {
	st, running, err := service.ReadStationStatus(path, now)
	if _, ok, _ := service.ReadStation(path); !ok {
		return []string{translate("This record belongs to no station: make this machine the first one with 'arbiter --db FILE station serve --listen HOST:PORT'.")}, false
	}
	if err != nil {
		return []string{sentence(err)}, true
	}
	state := translate("running")
	if !running {
		state = translate("not running")
	}
	lines = append(lines,
		tr("This station: %s (%s), %s", st.Station, st.Role, state),
		tr("Authority: %s", orDash(st.Authority)),
		tr("Record: event %d, head %s", st.Seq, shortHead(st.Head)))
	if st.UncertaintyMS < 0 {
		lines = append(lines, translate("Clock: no authority has answered a time request yet"))
	} else {
		lines = append(lines, tr("Clock: offset %.1f ms ± %.1f ms to the authority", st.OffsetMS, st.UncertaintyMS))
	}
	if st.Epoch > 0 {
		lines = append(lines, tr("Epoch %d", st.Epoch))
	}
	if !st.CanAppend {
		lines = append(lines, translate("This station can append nothing now (a client, or cut off from the majority of the record holders)."))
	}
	if st.Alarm != "" {
		lines = append(lines, tr("ALARM: %s", alarmSaid(st.Alarm, st.AlarmWhy)))
	}
	if len(st.Stations) > 0 {
		return append(lines, seenLines(st.Stations, running, timeOfDay)...), true
	}
	lines = append(lines, tr("Members (%d):", len(st.Members)))
	for _, m := range st.Members {
		up := translate("down")
		if m.Up {
			up = translate("up")
		}
		auth := ""
		if m.Name == st.Authority {
			auth = " · " + translate("authority")
		}
		lines = append(lines, tr("%s (%s): %s, %d events behind", m.Name, m.Role, up, m.Lag)+auth)
	}
	return lines, true
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func shortHead(h string) string {
	if len(h) > 16 {
		return h[:16] + "…"
	}
	return h
}

// stationsDialog shows Match → Stations…, re-read from the status file
// every stationsEvery while it is open.
func (c *console) stationsDialog() {
	var v *stationsView
	stop := func() {}
	v = newStationsView(c.win, func() { c.asArbiter(c.inviteDialog) }, func() {
		stop()
		if c.stations == v {
			c.stations = nil
		}
	})
	refresh := func() {
		v.show(stationsLines(c.recordPath(), c.now(), func(t time.Time) string {
			if m := c.state().Match; m != nil {
				return m.LocalTime(t, "15:04:05")
			}
			return t.UTC().Format("15:04:05") + " UTC"
		}))
	}
	var arm func()
	arm = func() {
		stop = c.after(stationsEvery, func() {
			c.ui(func() {
				if c.stations == v {
					refresh()
					arm()
				}
			})
		})
	}
	refresh()
	c.stations = v
	c.showDialog(v.d)
	arm()
}

// errNeedArbiter: invitations are the arbiter's.
var errNeedArbiter = errText("Invitations are made with the arbiter's credential: switch to arbiter mode with the PIN (Ctrl+M) and invite again.")

// hasArbiterCredential reports whether the console acts as the arbiter with
// his credential (the PIN, on a protected match).
func (c *console) hasArbiterCredential() bool {
	m := c.state().Match
	return c.mode == match.RoleArbiter && (m == nil || !m.Protected() || m.CheckPIN(c.pin))
}

// inviteDialog asks for the invited station's role, name and file.
func (c *console) inviteDialog() {
	role := widget.NewSelect(service.StationRoles, nil)
	role.SetSelected("operator")
	name := newFormEntry(false)
	name.SetPlaceHolder(translate("e.g. laptop"))
	file := entryWith(c.beside("-invite.json"))
	opKey := entryWith("")
	opKey.SetPlaceHolder(translate("only if the match has an operator's credential"))
	c.inviting = &inviteForm{role: role, name: name, file: file, opKey: opKey}
	items := []*widget.FormItem{
		widget.NewFormItem(translate("Role"), role),
		widget.NewFormItem(translate("Name"), name),
		widget.NewFormItem(translate("File"), file),
		widget.NewFormItem(translate("Operator's key file"), opKey),
	}
	c.inviting.ok = func() error {
		if !c.hasArbiterCredential() {
			return errNeedArbiter
		}
		path := strings.TrimSpace(file.Text)
		n := strings.TrimSpace(name.Text)
		// An operator's invitation to a protected match carries the
		// operator's credential: made and registered through the authority
		// with the arbiter's PIN the console holds, or the key file given.
		g := service.Global{DB: c.recordPath(), Role: match.RoleArbiter, PIN: c.pin}
		key := ""
		if role.Selected == "operator" {
			key = strings.TrimSpace(opKey.Text)
		}
		if err := service.InviteStation(c.ctx, c.recordPath(), role.Selected, n, path, g, key); err != nil {
			return err
		}
		c.afterDialog(func() {
			c.info(translate("Invitation written"), tr("The invitation for %s (%s) is in %s. On that machine: arbiter --db NEWFILE station join INVITE.", n, role.Selected, path))
		})
		return nil
	}
	c.inviting.d = c.formDialog(translate("Invite a station"), translate("Write the invitation"), items, c.inviting.ok)
}

// inviteForm is the open Invite dialog (tests fill it in).
type inviteForm struct {
	role              *widget.Select
	name, file, opKey *formEntry
	ok                func() error
	d                 dialog.Dialog
}

// stationNote is the status line's word for a station's replica ("" for
// a record of no station): the console shows it read-only (run.go).
func stationNote(path string, now time.Time) string {
	sf, ok, _ := service.ReadStation(path)
	if !ok {
		return ""
	}
	auth := "–"
	if st, _, err := service.ReadStationStatus(path, now); err == nil && st.Authority != "" {
		auth = st.Authority
	}
	if sf.Role == "mirror" {
		return tr("station %s's replica (read only) · authority %s", sf.Name, auth)
	}
	return tr("station %s's replica · authority %s", sf.Name, auth)
}

// runStation runs the station of the record at path in this process (as
// 'station serve' does; docs/stations.md, "The console"), on the console's
// time source, until the returned stop is called, unless a station runs
// for the record already (it holds the record's station lock): then the
// console uses that one. A station that cannot start or stops with an
// error says so in a dialog.
func (c *console) runStation(path string, sf *service.StationFile, now func() time.Time) (stop func()) {
	lock, err := service.LockStation(path)
	if err != nil {
		var busy *service.BusyError
		if !errors.As(err, &busy) {
			c.showError(err)
		}
		return func() {}
	}
	ctx, cancel := context.WithCancel(c.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		logf := func(f string, a ...any) { fmt.Fprintf(os.Stderr, "arbiter: "+f+"\n", a...) }
		if err := service.Serve(ctx, path, sf, service.ServeOptions{Now: now, Logf: logf, Lock: lock}); err != nil && ctx.Err() == nil {
			c.ui(func() { c.showError(err) })
		}
	}()
	return func() { cancel(); <-done }
}

// stationRefusal is, on a station's replica, the sentence for a command
// the console refused because it writes nothing there: the console does
// not forward commands to the authority (the command line does).
func (c *console) stationRefusal() string {
	if sf, ok, _ := service.ReadStation(c.recordPath()); ok && sf.Role == "mirror" {
		return fmt.Sprintf(translate("This console shows %s; it gives no commands, and the mirror terminal only reads the record: give them at another station."), c.stationNote)
	}
	return fmt.Sprintf(translate("This console shows %s; it sends the moves, the presses and the game's commands to the authority, not this one yet. Give it at the authority's console, or here with 'arbiter --db %s …', which sends it to the authority."), c.stationNote, c.recordPath())
}

// noteStationWrite shows the banner of a command refused on a station's
// replica (noteWriteError).
func (c *console) noteStationWrite() bool {
	if c.stationNote == "" {
		return false
	}
	c.blockedSeq = c.state().Seq
	c.banner.text.SetText("⚠ " + c.stationRefusal())
	c.banner.obj.Show()
	return true
}

// atArbitersConsole says, on the operator's laptop, that a command not the
// operator's is given at the arbiter's console.
const atArbitersConsole = "The operator's station gives only the operator's commands: this one is given at the arbiter's console."

// explain is the sentence of a refusal: on a station's replica, a
// command the console could not write is explained as the station's; the
// advice fits the station and mode it is given in (issue 27: on the
// laptop's console, already in operator mode, a press of the human's clock
// answered "switch to operator mode (Ctrl+M)").
func (c *console) explain(err error) string {
	var role *service.RoleError
	if errors.As(err, &role) && c.mode != match.RoleArbiter {
		// already in operator mode: the advice is where to give it
		return translate(atArbitersConsole)
	}
	if words, ok := stationWords(err); ok {
		return words
	}
	if _, ok := writeProblem(err); ok && c.stationNote != "" {
		return c.stationRefusal()
	}
	return sentence(err)
}

// seenLines are the lines of every station the station knows, clients
// included (issue 27: the operator's laptop and the mirror were never
// shown): its role; connected, or when it was last heard; how many events
// it is behind; its clock's uncertainty to the authority; the authority;
// its alarm. running: this console's station runs (else it hears nobody).
func seenLines(seen []service.StationSeen, running bool, timeOfDay func(time.Time) string) []string {
	lines := []string{tr("Stations (%d):", len(seen))}
	for _, s := range seen {
		var l string
		switch {
		case s.Self && !running:
			l = tr("%s (%s): not running", s.Name, s.Role)
		case s.Connected:
			l = tr("%s (%s): connected, %d events behind", s.Name, s.Role, s.Lag)
		case s.LastSeenNS == 0:
			l = tr("%s (%s): not heard since this station started", s.Name, s.Role)
		default:
			l = tr("%s (%s): last seen %s, %d events behind", s.Name, s.Role, timeOfDay(time.Unix(0, s.LastSeenNS)), s.Lag)
		}
		if s.UncertaintyMS >= 0 {
			l += ", " + tr("clock ± %.1f ms", s.UncertaintyMS)
		} else if s.Connected {
			l += ", " + translate("clock not yet set by the authority")
		}
		if s.Authority {
			l += " · " + translate("authority")
		}
		if s.Self {
			l += " · " + translate("this station")
		}
		if s.Alarm != "" {
			l += " · " + tr("ALARM: %s", alarmSaid(s.Alarm, s.AlarmWhy))
		}
		lines = append(lines, l)
	}
	return lines
}

// alarmSaid is a station's alarm in the console's language: its phrase
// (station.AlarmError.Why) said with the console's words, or its English
// when the station sent none (a station older than phrases).
func alarmSaid(english string, why *phrase.Error) string {
	if why == nil {
		return english
	}
	return say(why)
}
