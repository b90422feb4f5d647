package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// outputFlag declares a file the command writes once its work is done (a
// report, a log): checked as the flag is read, so that no work is done
// for a report that could not be written at its end.
func outputFlag(fs *flag.FlagSet, name, usage string) *string {
	path := new(string)
	fs.Func(name, usage, func(value string) error {
		if err := writable(value); err != nil {
			return err
		}
		*path = value
		return nil
	})
	return path
}

// writable refuses, before anything is done, a file that cannot be
// written whole (atomicfile writes beside it and renames): its folder
// must exist and take a new file, and it must not be a folder.
func writable(path string) error {
	if path == "" {
		return errors.New("a file name is required")
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil {
		return fmt.Errorf("the folder %s does not exist", dir)
	} else if !info.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s is a folder", path)
	}
	f, err := os.CreateTemp(dir, ".agent-analysis-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("no file can be created in %s: %v", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
