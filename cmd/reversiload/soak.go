package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// maxSoakDuration is the longest -duration of a soak (-soak): a soak is about what memory
// does over a long run.
const maxSoakDuration = time.Hour

// SoakStats is the resident memory of the bots sampled over the whole run (-soak).
type SoakStats struct {
	Every  time.Duration
	InProc bool       // the memory is this process's: bots, fake server and players
	Procs  []SoakProc // one per bot process (in process: this one)
}

// SoakProc is one process's memory over the run.
type SoakProc struct {
	PID     int
	Samples []int64 // bytes: VmRSS, one per Every from the run's start
	Peak    int64   // the largest sample
	HWM     int64   // VmHWM at the end: the peak over the process's whole life
}

// soakRun samples the memory of pids (none: this process) every cfg.Soak until ctx ends, when
// cfg asks for it; wait returns the figures once the run is over.
func soakRun(ctx context.Context, cfg Config, pids []int, wg *sync.WaitGroup) (wait func() *SoakStats) {
	if cfg.Soak <= 0 {
		return func() *SoakStats { return nil }
	}
	st := &SoakStats{Every: cfg.Soak, InProc: len(pids) == 0}
	if len(pids) == 0 {
		pids = []int{0}
	}
	st.Procs = make([]SoakProc, len(pids))
	for i, pid := range pids {
		st.Procs[i].PID = pid
	}
	wg.Go(func() {
		t := time.NewTicker(cfg.Soak) // a measurement's pace, not synchronisation
		defer t.Stop()
		for {
			for i := range st.Procs {
				p := &st.Procs[i]
				if rss, hwm, err := procMemory(p.PID); err == nil {
					p.Samples = append(p.Samples, rss)
					p.Peak, p.HWM = max(p.Peak, rss), hwm
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	})
	return func() *SoakStats { return st }
}

// print writes the soak's lines of the report: each process's peak and its timeline in MB.
func (s SoakStats) print(w io.Writer) {
	for _, p := range s.Procs {
		who := fmt.Sprintf("bot pid %d", p.PID)
		if s.InProc {
			who = "this process (bots + fake API + players)"
		}
		fmt.Fprintf(w, "soak: RSS of %s every %v: peak %s (VmHWM %s)\n", who, s.Every, mb(p.Peak), mb(p.HWM))
		var tl strings.Builder
		for _, b := range p.Samples {
			fmt.Fprintf(&tl, " %.0f", float64(b)/(1<<20))
		}
		fmt.Fprintf(w, "soak: timeline MB:%s\n", tl.String())
	}
}
