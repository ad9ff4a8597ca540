package explorersvc

import "iter"

// Loaded is one product file as LoadAhead hands it over: its input, or why it did not load.
type Loaded struct {
	File  string
	Input Input
	Err   error
}

// LoadAhead loads the product files in order (LoadSBOM), one ahead of its consumer, and
// prepares each for its import (its records encoded and sorted, its file lists let go): the
// next product is parsed and prepared — one core's work — while the consumer imports the one
// before, which keeps the search index and the store busy on the other. At most two products
// are in memory at once, the one loading as parsed input and prepared records, the one
// importing as prepared records (a whole directory used to be loaded before the first
// import). Stopping the iteration early stops the loading.
func LoadAhead(files []string) iter.Seq[Loaded] {
	return func(yield func(Loaded) bool) {
		next := make(chan Loaded) // unbuffered: the loader holds at most the one it has loaded
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			defer close(next)
			for _, f := range files {
				in, err := LoadSBOM(f)
				if err == nil {
					in.prepare()
				}
				select {
				case next <- Loaded{File: f, Input: in, Err: err}:
				case <-stop:
					return
				}
			}
		}()
		for l := range next {
			if !yield(l) {
				return
			}
		}
	}
}
