package page

import (
	"maps"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// pageSize is the events one read asks for: small enough that decoding a
// page never holds the page's one thread for long.
const pageSize = 250

// Update is the only place the Model changes. It does no I/O: it returns
// the Cmd the runtime performs, whose answer comes back as a Msg.
func Update(m Model, msg Msg) (Model, Cmd) {
	switch msg := msg.(type) {
	case Located:
		switch id, cursor := readPlace(msg.Hash); {
		case id == "", id == m.Shown.ID && cursor == m.Shown.Cursor:
		case id == m.Shown.ID:
			return moveTo(m, cursor)
		default:
			return choose(m, id, cursor)
		}
	case LiveOpened:
		m.Live = Connected
		return m, batch(ReadRuns{}, m.Shown.catchUp())
	case LiveLost:
		m.Live = Lost
	case LiveUpdate:
		return live(m, msg.Update)
	case GotRuns:
		if msg.Err != nil {
			m.Status = "The list of runs could not be read: " + msg.Err.Error()
			return m, nil
		}
		m.Runs, m.Listed = relisted(m.Runs, msg.Runs), true
	case GotDetail:
		return gotDetail(m, msg)
	case GotEvents:
		return gotEvents(m, msg)
	case GotAt:
		s := &m.Shown
		if msg.ID != s.ID {
			return m, nil
		}
		s.Reading.At = false
		if msg.Err != nil {
			m.Status = "The state could not be read: " + msg.Err.Error()
			return m, nil
		}
		at := msg.At
		s.At = &at
		if s.Reading.AtIndex != s.Cursor { // the cursor moved on meanwhile
			return m, s.readAt()
		}
	case ChoseEvent:
		return moveTo(m, msg.Index)
	case Stepped:
		to := m.Shown.Cursor + msg.By
		switch msg.To {
		case First:
			to = -1
		case Final:
			to = m.Shown.Last()
		}
		return moveTo(m, to)
	case Scrolled:
		m.Shown.Scroll.Top, m.Shown.Scroll.Height, m.Shown.Scroll.RowPx = msg.Top, msg.Height, msg.RowPx
	case Toggled:
		open := maps.Clone(m.Shown.Open)
		if open == nil {
			open = map[string]bool{}
		}
		open[msg.Pointer] = msg.Open
		m.Shown.Open = open
	case ShowWhole:
		whole := maps.Clone(m.Shown.Whole)
		if whole == nil {
			whole = map[string]bool{}
		}
		whole[msg.Key] = true
		m.Shown.Whole = whole
	case ChoseCopy:
		if m.Shown.ID != "" {
			return m, CopyRun{ID: m.Shown.ID, What: msg.What}
		}
	case Copied:
		if msg.Err != nil {
			m.Status = "Could not copy run " + msg.ID + "'s " + msg.What.Label() + ": " + msg.Err.Error()
			return m, nil
		}
		m.Status = "Copied run " + msg.ID + "'s " + msg.What.Label() + "."
	case ChoseFiles:
		if len(msg.Files) == 0 {
			return m, nil
		}
		var names []string
		for _, f := range msg.Files {
			names = append(names, f.Name)
		}
		m.Status = "Opening " + strings.Join(names, ", ") + "…"
		return m, OpenFiles(msg) // the same files, in the order given
	case Opened:
		switch {
		case msg.Err != nil:
			m.Status = "Could not open " + msg.Name + ": " + msg.Err.Error()
		case len(msg.Said) > 0:
			m.Status = "Opened " + msg.Name + ". The inspector said: " + strings.Join(msg.Said, "; ")
		default:
			m.Status = "Opened " + msg.Name + ": its runs are at the top of the list."
		}
	}
	return m, nil
}

// choose shows a run, at an event, from nothing read yet.
func choose(m Model, id string, cursor int) (Model, Cmd) {
	m.Shown = Shown{ID: id, Cursor: cursor, Scroll: Scroll{Height: m.Shown.Scroll.Height, RowPx: m.Shown.Scroll.RowPx}}
	s := &m.Shown
	return m, batch(s.readDetail(), s.readEvents(), s.readAt(), KeepPlace{Hash: placeHash(id, cursor)})
}

// live takes one change the store told of.
func live(m Model, u runs.Update) (Model, Cmd) {
	s := &m.Shown
	switch u.Kind {
	case "run", "event":
		if u.Run == nil {
			return m, nil
		}
		m.Runs = withRun(m.Runs, *u.Run)
		if u.Run.ID != s.ID {
			return m, nil
		}
		if s.Detail != nil { // the header follows at once; the rest is read
			d := *s.Detail
			d.Run = merge(d.Run, *u.Run)
			s.Detail = &d
		}
		if u.Kind == "event" {
			return m, s.readEvents()
		}
		return m, s.readDetail()
	case "gone":
		m.Runs = withoutRun(m.Runs, u.ID)
		if u.ID == s.ID {
			s.Gone = true
		}
	case "resync":
		return m, batch(ReadRuns{}, s.catchUp())
	}
	return m, nil
}

func gotDetail(m Model, msg GotDetail) (Model, Cmd) {
	s := &m.Shown
	if msg.ID != s.ID {
		if s.Detail != nil && !msg.Gone && msg.Err == nil {
			d := msg.Detail
			switch msg.ID {
			case s.Detail.Resumes:
				s.Asked = &d
			case s.Detail.ResumedBy:
				s.Answer = &d
			}
		}
		return m, nil
	}
	s.Reading.Detail = false
	switch {
	case msg.Gone:
		s.Gone = true
		return m, nil
	case msg.Err != nil:
		m.Status = "Run " + msg.ID + " could not be read: " + msg.Err.Error()
		return m, nil
	}
	d := msg.Detail
	if s.Detail != nil {
		d.Run = merge(s.Detail.Run, d.Run)
	}
	s.Detail = &d
	var cmds []Cmd
	if s.Reading.DetailAgain {
		s.Reading.DetailAgain = false
		cmds = append(cmds, s.readDetail())
	}
	if d.Resumes != "" && (s.Asked == nil || s.Asked.ID != d.Resumes) {
		cmds = append(cmds, ReadDetail{ID: d.Resumes})
	}
	if d.ResumedBy != "" && (s.Answer == nil || s.Answer.ID != d.ResumedBy) {
		cmds = append(cmds, ReadDetail{ID: d.ResumedBy})
	}
	return m, batch(cmds...)
}

func gotEvents(m Model, msg GotEvents) (Model, Cmd) {
	s := &m.Shown
	if msg.ID != s.ID {
		return m, nil
	}
	s.Reading.Events = false
	switch {
	case msg.Gone:
		s.Gone = true
		return m, nil
	case msg.Err != nil:
		m.Status = "Run " + msg.ID + "'s events could not be read: " + msg.Err.Error()
		return m, nil
	}
	if msg.From == len(s.Events) {
		for _, ev := range msg.Events {
			if ev.Index >= 0 && ev.Index == len(s.Pos) {
				s.Pos = append(s.Pos, len(s.Events))
			}
			s.Events = append(s.Events, ev)
		}
		s.More = msg.More
	}
	if !s.More && s.Cursor > s.Last() { // the URL named an event the run has not
		s.Cursor = s.Last()
		return m, batch(s.readAt(), KeepPlace{Hash: placeHash(s.ID, s.Cursor)})
	}
	if s.More || s.Reading.EventsAgain {
		s.Reading.EventsAgain = false
		return m, s.readEvents()
	}
	return m, nil
}

// moveTo puts the cursor on an event (clamped to those read), scrolls the
// timeline to it and reads the state there.
func moveTo(m Model, to int) (Model, Cmd) {
	s := &m.Shown
	if s.ID == "" {
		return m, nil
	}
	to = min(max(to, -1), s.Last())
	if to == s.Cursor {
		return m, nil
	}
	s.Cursor = to
	s.reveal()
	return m, batch(s.readAt(), KeepPlace{Hash: placeHash(s.ID, to)})
}

// reveal scrolls the timeline just enough to show the cursor's row.
func (s *Shown) reveal() {
	sc := &s.Scroll
	if sc.RowPx <= 0 {
		return
	}
	top := float64(s.Row()) * sc.RowPx
	switch {
	case top < sc.Top:
		sc.Top = top
	case top+sc.RowPx > sc.Top+sc.Height:
		sc.Top = top + sc.RowPx - sc.Height
	default:
		return
	}
	sc.Reveal++
}

// The reads of the shown run: one of each kind in flight at a time; news
// meanwhile asks for one more read once it lands.

func (s *Shown) readDetail() Cmd {
	if s.Gone || s.ID == "" {
		return nil
	}
	if s.Reading.Detail {
		s.Reading.DetailAgain = true
		return nil
	}
	s.Reading.Detail = true
	return ReadDetail{ID: s.ID}
}

func (s *Shown) readEvents() Cmd {
	if s.Gone || s.ID == "" {
		return nil
	}
	if s.Reading.Events {
		s.Reading.EventsAgain = true
		return nil
	}
	s.Reading.Events = true
	return ReadEvents{ID: s.ID, From: len(s.Events), Limit: pageSize}
}

func (s *Shown) readAt() Cmd {
	if s.Gone || s.ID == "" || s.Reading.At {
		return nil // GotAt asks again if the cursor moved meanwhile
	}
	s.Reading.At, s.Reading.AtIndex = true, s.Cursor
	return ReadAt{ID: s.ID, Index: s.Cursor}
}

// catchUp reads what the shown run may have gained while the feed was
// down.
func (s *Shown) catchUp() Cmd {
	return batch(s.readDetail(), s.readEvents())
}
