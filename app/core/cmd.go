package core

// Cmd is an effect Update asks for. Update only describes it; the effects
// package at the edge performs it.
type Cmd interface{ cmd() }

// StartStream opens the run's connection.
type StartStream struct{ Run Run }

// AbortStream closes a run's connection. Every connection gets exactly
// one, when its stream stops being the open one, unless it ended by
// itself first.
type AbortStream struct{ Generation Generation }

// Sequence is several Cmds, performed in order.
type Sequence []Cmd

func (StartStream) cmd() {}
func (AbortStream) cmd() {}
func (Sequence) cmd()    {}
