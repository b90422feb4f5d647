package server

// WithDisposals is cfg with a hook told once per stream that its timer
// and cursor were released: what the disposal tests count. Production has
// no such hook.
func WithDisposals(cfg Config, f func(Disposal)) Config {
	cfg.onDispose = f
	return cfg
}
