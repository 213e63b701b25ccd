package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// With -pictures N the bots serve their boards' pictures (PUBLIC_URL on a loopback port) and N
// clients fetch them as fast as they are answered while the chats play: the picture flood.
// Before the run two more users play 16×16 games in an inline post, whose boards are pictures
// at addresses the bot signs, until -picture-addrs distinct addresses are known; then each
// client cycles through all of them from its own starting point, so with more addresses than
// the bot keeps drawn, almost every fetch makes it draw. A client takes neither a 503 nor its
// Retry-After as a reason to slow down: it asks for the next address at once. The report adds
// the fetches by answer, their latency, and the memory (RSS) of each bot process at the
// flood's start and at its peak:
//
//	reversiload -spawn /tmp/reversibot -redis redis://127.0.0.1:6379/0 -chats 8 -think 250ms -pictures 16 -duration 20s

// defaultPictureAddrs is -picture-addrs unless set: about two 16×16 games' worth of plies.
const defaultPictureAddrs = 500

// maxPictureClients bounds -pictures.
const maxPictureClients = 256

// PictureStats is what the picture flood did and what it cost the bots' memory.
type PictureStats struct {
	Clients  int
	Addrs    int            // distinct picture addresses cycled through
	Games    int            // inline 16×16 games played to make them
	Status   map[int]int64  // fetches by HTTP status
	Failed   int64          // fetches without an answer (a transport error)
	OK       Summary        // latency of the fetches answered 200
	Memory   []ProcMemory   // each bot process's (or, in process, this process's) memory
	Duration time.Duration  // how long the clients fetched
	InProc   bool           // the memory is this process's: bots, fake server and players
	byStatus map[int]*int64 // live counters while the flood runs
}

// ProcMemory is a process's resident memory at the flood's start and its peak during it.
type ProcMemory struct {
	PID          int
	Start, Peak  int64 // bytes: VmRSS when the flood started, the largest VmRSS sampled during it
	HighWaterRSS int64 // bytes: VmHWM at the end (the peak over the process's whole life)
}

// validatePictures checks the picture flood's flags.
func (c Config) validatePictures() []error {
	var errs []error
	if c.Pictures < 0 || c.Pictures > maxPictureClients || c.PicAddrs < 1 || c.PicAddrs > 5000 {
		errs = append(errs, fmt.Errorf("-pictures must be 0…%d and -picture-addrs 1…5000", maxPictureClients))
	}
	if c.Pictures > 0 && (c.External || len(c.Targets) > 0 || c.Limits) {
		errs = append(errs, errors.New("-pictures needs bots in this process or -spawn, without -limits"))
	}
	return errs
}

// picturePublicURL is the PUBLIC_URL of an in-process bot or a single spawned one under
// -pictures ("" without): the loopback address this command picked for them.
func (c Config) picturePublicURL() string {
	if c.Pictures == 0 || c.pictureAddr == "" {
		return ""
	}
	return "http://" + c.pictureAddr
}

// pickPictureAddr picks the loopback address the bots serve their pictures on, under
// -pictures; spawned processes in webhook mode serve them on their LISTEN_ADDR instead.
func pickPictureAddr(cfg *Config) error {
	if cfg.Pictures == 0 || (cfg.Spawn != "" && cfg.Procs > 1) {
		return nil
	}
	ports, err := freePorts(1)
	if err != nil {
		return err
	}
	cfg.pictureAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0]))
	return nil
}

// servePictures serves bot's pictures on cfg's picture address, as cmd/reversibot serves them
// on LISTEN_ADDR, until the returned stop is called; without -pictures it does nothing.
func servePictures(cfg Config, b *bot.Running) (stop func(), err error) {
	if cfg.picturePublicURL() == "" {
		return func() {}, nil
	}
	render.Preload(game.Sizes) // as cmd/reversibot does at start
	ln, err := net.Listen("tcp", cfg.pictureAddr)
	if err != nil {
		return nil, fmt.Errorf("listen for pictures: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+bot.PicturePath, b.Pictures.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	return func() { _ = hs.Close() }, nil
}

// pictureBases are the base URLs the clients fetch the picture paths from, round robin.
func pictureBases(cfg Config, f *fleet) []string {
	if f != nil && cfg.Procs > 1 {
		var out []string
		for _, p := range f.procs {
			if p.target != "" {
				u, _ := url.Parse(p.target)
				out = append(out, "http://"+u.Host)
			}
		}
		return out
	}
	return []string{cfg.picturePublicURL()}
}

// pictureRun starts the picture clients beside the players when cfg asks for them; wait
// returns their figures once the run is over. pids are the bot processes whose memory to
// follow; none means this process (in-process bots).
func pictureRun(ctx context.Context, cfg Config, d *driver, paths, bases []string, games int, pids []int, wg *sync.WaitGroup) (wait func() *PictureStats) {
	if cfg.Pictures == 0 || len(paths) == 0 {
		return func() *PictureStats { return nil }
	}
	st := &PictureStats{Clients: cfg.Pictures, Addrs: len(paths), Games: games, InProc: len(pids) == 0,
		Status: map[int]int64{}, byStatus: map[int]*int64{}}
	for _, code := range []int{http.StatusOK, http.StatusNotFound, http.StatusServiceUnavailable} {
		st.byStatus[code] = new(int64)
	}
	mem := newMemoryWatch(pids)
	client := &http.Client{Timeout: 30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Pictures, MaxIdleConns: cfg.Pictures * 2}}
	var ok latencies
	var other sync.Map // status → *int64, for statuses not in byStatus
	var failed atomic.Int64
	start := time.Now()
	var clients sync.WaitGroup
	for i := range cfg.Pictures {
		clients.Go(func() {
			k := i * len(paths) / cfg.Pictures
			for ; ctx.Err() == nil; k++ {
				u := bases[k%len(bases)] + paths[k%len(paths)]
				t0 := time.Now()
				code, err := fetch(ctx, client, u)
				switch {
				case err != nil:
					if ctx.Err() == nil {
						failed.Add(1)
						d.fail("picture fetch: " + firstLine(err.Error()))
					}
					continue
				case code == http.StatusOK:
					ok.add(time.Since(t0))
				case code != http.StatusServiceUnavailable:
					d.fail("picture fetch: HTTP " + strconv.Itoa(code))
				}
				if c, known := st.byStatus[code]; known {
					atomic.AddInt64(c, 1)
				} else {
					c, _ := other.LoadOrStore(code, new(int64))
					atomic.AddInt64(c.(*int64), 1)
				}
			}
		})
	}
	wg.Go(func() {
		mem.follow(ctx)
		clients.Wait()
		st.Duration = time.Since(start)
		st.Failed = failed.Load()
		for code, c := range st.byStatus {
			if n := atomic.LoadInt64(c); n > 0 {
				st.Status[code] = n
			}
		}
		other.Range(func(k, v any) bool {
			st.Status[k.(int)] = atomic.LoadInt64(v.(*int64))
			return true
		})
		st.OK = ok.summary()
		st.Memory = mem.result()
	})
	return func() *PictureStats { return st }
}

// fetch GETs u and reads its body, returning the status.
func fetch(ctx context.Context, client *http.Client, u string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// print writes the picture flood's lines of the report.
func (s PictureStats) print(w io.Writer) {
	sec := s.Duration.Seconds()
	if sec <= 0 {
		sec = 1
	}
	var total int64
	for _, n := range s.Status {
		total += n
	}
	fmt.Fprintf(w, "pictures: %d clients over %d addresses (%d inline 16×16 games): %d fetches (%.0f/s): %d × 200, %d × 503 (busy)",
		s.Clients, s.Addrs, s.Games, total, float64(total)/sec, s.Status[http.StatusOK], s.Status[http.StatusServiceUnavailable])
	for code, n := range s.Status {
		if code != http.StatusOK && code != http.StatusServiceUnavailable {
			fmt.Fprintf(w, ", %d × %d", n, code)
		}
	}
	fmt.Fprintf(w, ", %d without answer\n", s.Failed)
	fmt.Fprintf(w, "pictures fetch (200): %v\n", s.OK)
	for _, m := range s.Memory {
		who := fmt.Sprintf("bot pid %d", m.PID)
		if s.InProc {
			who = "this process (bots + fake API + players)"
		}
		fmt.Fprintf(w, "memory of %s: RSS %s at the flood's start, peak %s during it (VmHWM, over its whole life: %s)\n",
			who, mb(m.Start), mb(m.Peak), mb(m.HighWaterRSS))
	}
}

// mb writes bytes as megabytes.
func mb(b int64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
}

// memorySample is how often the memory of the bots is read during the flood.
const memorySample = 50 * time.Millisecond

// memoryWatch follows the resident memory of processes.
type memoryWatch struct {
	pids []int // 0 stands for this process
	mem  []ProcMemory
}

func newMemoryWatch(pids []int) *memoryWatch {
	if len(pids) == 0 {
		pids = []int{0}
	}
	m := &memoryWatch{pids: pids, mem: make([]ProcMemory, len(pids))}
	for i, pid := range pids {
		m.mem[i].PID = pid
		if rss, _, err := procMemory(pid); err == nil {
			m.mem[i].Start, m.mem[i].Peak = rss, rss
		}
	}
	return m
}

// follow samples the memory until ctx ends (a measurement's pace, not synchronisation).
func (m *memoryWatch) follow(ctx context.Context) {
	t := time.NewTicker(memorySample)
	defer t.Stop()
	for {
		for i, pid := range m.pids {
			if rss, hwm, err := procMemory(pid); err == nil {
				m.mem[i].Peak = max(m.mem[i].Peak, rss)
				m.mem[i].HighWaterRSS = hwm
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// result returns the figures; call it after follow returned.
func (m *memoryWatch) result() []ProcMemory { return m.mem }

// procMemory reads VmRSS and VmHWM, in bytes, of process pid (0: this one) from Linux's
// /proc/PID/status.
func procMemory(pid int) (rss, hwm int64, err error) {
	file := "/proc/self/status"
	if pid != 0 {
		file = fmt.Sprintf("/proc/%d/status", pid)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, 0, err
	}
	return parseStatusMemory(b)
}

// parseStatusMemory reads the VmRSS and VmHWM lines ("VmRSS:   123456 kB") of a
// /proc/PID/status text.
func parseStatusMemory(b []byte) (rss, hwm int64, err error) {
	found := 0
	for line := range strings.Lines(string(b)) {
		key, val, ok := strings.Cut(line, ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		f := strings.Fields(val)
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, fmt.Errorf("malformed %s line %q", key, strings.TrimSpace(line))
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || n < 0 || n > 1<<40 {
			return 0, 0, fmt.Errorf("malformed %s line %q", key, strings.TrimSpace(line))
		}
		if key == "VmRSS" {
			rss = n << 10
		} else {
			hwm = n << 10
		}
		found++
	}
	if found != 2 {
		return 0, 0, errors.New("no VmRSS and VmHWM in /proc status")
	}
	return rss, hwm, nil
}
