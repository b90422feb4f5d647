package page

// Cmd is an effect Update asks for; the runtime performs it and brings
// back a Msg.
type Cmd interface{ cmd() }

// ReadRuns reads the list of runs (GotRuns).
type ReadRuns struct{}

// ReadDetail reads a run's detail (GotDetail).
type ReadDetail struct{ ID string }

// ReadEvents reads a page of a run's events (GotEvents).
type ReadEvents struct {
	ID    string
	From  int
	Limit int
}

// ReadAt reads the state after a run's event (GotAt).
type ReadAt struct {
	ID    string
	Index int
}

// CopyRun puts a run's export on the clipboard (Copied).
type CopyRun struct {
	ID   string
	What Export
}

// OpenFiles hands files to the inspector one after the other, so that
// their runs are numbered in the order they were given (Opened, each).
type OpenFiles struct{ Files []File }

// KeepPlace writes the selection into the URL's fragment, so that a
// reload shows it again.
type KeepPlace struct{ Hash string }

// Batch is several Cmds, in no order.
type Batch []Cmd

func (ReadRuns) cmd()   {}
func (ReadDetail) cmd() {}
func (ReadEvents) cmd() {}
func (ReadAt) cmd()     {}
func (CopyRun) cmd()    {}
func (OpenFiles) cmd()  {}
func (KeepPlace) cmd()  {}
func (Batch) cmd()      {}

// batch drops nil Cmds; nil when none is left.
func batch(cmds ...Cmd) Cmd {
	var out Batch
	for _, c := range cmds {
		switch c := c.(type) {
		case nil:
		case Batch:
			out = append(out, c...)
		default:
			out = append(out, c)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return out
}

// Export is a way a run leaves the inspector.
type Export string

const (
	AsScript  Export = "script"  // the kit's script format, JSON
	AsCapture Export = "capture" // SSE, as curl -N writes it
	AsCommand Export = "command" // the check command that asks for it again
)

// Label is what the page calls an export.
func (e Export) Label() string {
	switch e {
	case AsScript:
		return "script"
	case AsCapture:
		return "capture"
	}
	return "check command"
}
