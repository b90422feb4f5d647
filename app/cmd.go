package app

// Cmd is an effect Update asks for. Update only describes it; the Effects
// runtime at the edge performs it.
type Cmd interface{ cmd() }

// StartStream opens the run's connection.
type StartStream struct{ Run Run }

// AbortStream closes a connection. Every connection gets exactly one, when
// its run stops being the active one.
type AbortStream struct{ Conn Conn }

// Batch is several Cmds, in order.
type Batch []Cmd

func (StartStream) cmd() {}
func (AbortStream) cmd() {}
func (Batch) cmd()       {}
