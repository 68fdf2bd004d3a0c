// Command photos measures photo uploads at check-in (docs/performance.md#photos):
// it starts the service binary on a scratch SQLite database, books one reservation
// per client (PENDIENTE takes photos), signs each client in as an administrator,
// and has the clients upload N photos each in one request, all at once, to POST
// /admin/reservations/{id}/photos. It reports the service's peak resident memory
// (VmHWM in /proc/PID/status), the wall time of each request, the time per photo
// and the service's processor time per photo.
//
//	go build -o /tmp/parking ./cmd/parking && go run ./bench/photos -bin /tmp/parking
//	go run ./bench/photos -bin /tmp/parking -bin /tmp/parking-old -rounds 2   # alternated
//
// The photo is generated once: a 12-megapixel (4000×3000) JPEG at quality 90 of
// smooth gradients under random noise (±24 levels), about the size of a phone's photo (a flat
// picture would compress to nothing and decode faster than a real one).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

type bins []string

func (b *bins) String() string     { return strings.Join(*b, ",") }
func (b *bins) Set(v string) error { *b = append(*b, v); return nil }

func main() {
	var binaries bins
	flag.Var(&binaries, "bin", "service binary (repeat to alternate several builds)")
	clients := flag.Int("clients", 2, "staff members uploading at once")
	photos := flag.Int("photos", 20, "photos in each client's request")
	width := flag.Int("width", 4000, "photo width")
	height := flag.Int("height", 3000, "photo height")
	noise := flag.Int("noise", 24, "noise amplitude (levels a channel): less makes a smaller file")
	rounds := flag.Int("rounds", 1, "rounds (each binary once a round, a fresh process each time)")
	flag.Parse()
	if len(binaries) == 0 {
		fmt.Fprintln(os.Stderr, "usage: photos -bin PATH [-bin PATH2 …]")
		os.Exit(2)
	}
	photo := makePhoto(*width, *height, *noise)
	fmt.Printf("photo %d×%d, %.1f MB; %d clients × %d photos\n", *width, *height, float64(len(photo))/1e6, *clients, *photos)
	for r := 1; r <= *rounds; r++ {
		for _, bin := range binaries {
			res, err := run(bin, photo, *clients, *photos)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", bin, err)
				os.Exit(1)
			}
			fmt.Printf("round %d %s: load %s | idle RSS %.0f MB, peak RSS (VmHWM) %.0f MB | requests %s | %.2f s a photo (wall, per client), %.2f s processor a photo\n",
				r, filepath.Base(bin), res.load, res.idleMB, res.peakMB, res.walls, res.perPhoto, res.cpuPerPhoto)
		}
	}
}

type result struct {
	load                  string
	idleMB, peakMB        float64
	walls                 string
	perPhoto, cpuPerPhoto float64
}

func run(bin string, photo []byte, clients, photos int) (result, error) {
	var res result
	dir, err := os.MkdirTemp("", "photos-bench-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	port, err := freePort()
	if err != nil {
		return res, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	const email, password = "staff@example.com", "bench-password-1"
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(),
		"PARKING_DATABASE_URL=sqlite:"+filepath.Join(dir, "bench.db"),
		"PARKING_MEDIA_DIR="+filepath.Join(dir, "media"),
		"PARKING_ADDR=127.0.0.1:"+strconv.Itoa(port),
		"PARKING_BASE_URL="+base,
		"PARKING_ADMIN_EMAIL="+email, "PARKING_ADMIN_PASSWORD="+password,
		"PARKING_PUBLIC_RATE=0", "PARKING_LOG_LEVEL=warn", "TMPDIR="+dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return res, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	pid := cmd.Process.Pid
	if err := waitReady(base); err != nil {
		return res, err
	}
	ids := make([]int64, clients)
	staff := make([]*http.Client, clients)
	for i := range clients {
		if ids[i], err = book(base, i); err != nil {
			return res, err
		}
		if staff[i], err = login(base, email, password); err != nil {
			return res, err
		}
	}
	idle, _ := procStatus(pid, "VmRSS")
	cpu0, err := cpuTime(pid)
	if err != nil {
		return res, err
	}
	res.load = loadAvg()
	walls := make([]time.Duration, clients)
	errs := make([]error, clients)
	cut := make([]bool, clients)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range clients {
		wg.Go(func() {
			<-start
			t := time.Now()
			errs[i] = upload(staff[i], base, ids[i], photo, photos)
			walls[i] = time.Since(t)
			// The service writes an answer within 60 s of reading the request's
			// headers (app.DefaultWriteTimeout), the upload's included: on a busy
			// machine the handler finishes its work and its answer is cut.
			if errors.Is(errs[i], io.EOF) && walls[i] >= 60*time.Second {
				errs[i], cut[i] = nil, true
			}
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return res, err
		}
	}
	cpu1, err := cpuTime(pid)
	if err != nil {
		return res, err
	}
	peak, err := procStatus(pid, "VmHWM")
	if err != nil {
		return res, err
	}
	res.idleMB, res.peakMB = float64(idle)/1e6, float64(peak)/1e6
	var ws []string
	var longest time.Duration
	for i, w := range walls {
		note := ""
		if cut[i] {
			note = " (answer cut by the 60 s write timeout)"
		}
		ws = append(ws, fmt.Sprintf("%.1f s%s", w.Seconds(), note))
		longest = max(longest, w)
	}
	res.walls = strings.Join(ws, ", ")
	res.perPhoto = longest.Seconds() / float64(photos)
	res.cpuPerPhoto = (cpu1 - cpu0).Seconds() / float64(clients*photos)
	return res, nil
}

// makePhoto is a w×h JPEG: gradients with noise of ±noise levels a channel.
func makePhoto(w, h, noise int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			n := func(base int) uint8 { return uint8(min(max(base+rng.IntN(2*noise+1)-noise, 0), 255)) }
			img.SetRGBA(x, y, color.RGBA{n(x * 200 / w), n(y * 200 / h), n((x + y) * 100 / (w + h)), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitReady(base string) error {
	for range 200 {
		if r, err := http.Get(base + "/readyz"); err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s/readyz: not ready after 10 s", base)
}

// book makes a public booking a week ahead (PENDIENTE) and returns its id.
func book(base string, i int) (int64, error) {
	entry := time.Now().AddDate(0, 0, 7).Format("2006-01-02") + "T10:00"
	exit := time.Now().AddDate(0, 0, 14).Format("2006-01-02") + "T18:00"
	body := fmt.Sprintf(`{"full_name":"Cliente %d","phone":"61200%04d","email":"c%d@example.com","license_plate":"B%04dBCD",`+
		`"vehicle_type":"TURISMO","entry_date":"%s","exit_date":"%s","id_main_service":1,"additional_services":[]}`, i, i, i, i, entry, exit)
	r, err := http.Post(base+"/api/reservations/public-new", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode >= 300 {
		return 0, fmt.Errorf("booking: %s %s", r.Status, b)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		return 0, fmt.Errorf("booking: %v: %s", err, b)
	}
	if id, ok := findID(v); ok {
		return id, nil
	}
	return 0, fmt.Errorf("booking: no id in %s", b)
}

// findID finds the reservation's id in the booking's answer.
func findID(v map[string]any) (int64, bool) {
	for _, k := range []string{"id_reservation", "id", "reservation_id"} {
		if f, ok := v[k].(float64); ok {
			return int64(f), true
		}
	}
	for _, k := range []string{"reservation", "data"} {
		if m, ok := v[k].(map[string]any); ok {
			if id, ok := findID(m); ok {
				return id, true
			}
		}
	}
	return 0, false
}

func login(base, email, password string) (*http.Client, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	r, err := c.PostForm(base+"/users/login", url.Values{"email": {email}, "password": {password}, "loginType": {"worker"}})
	if err != nil {
		return nil, err
	}
	r.Body.Close()
	u, _ := url.Parse(base)
	if r.StatusCode >= 400 || len(jar.Cookies(u)) == 0 {
		return nil, fmt.Errorf("login: %s, no session", r.Status)
	}
	return c, nil
}

// upload sends n copies of photo in one multipart request, streamed.
func upload(c *http.Client, base string, id int64, photo []byte, n int) error {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		for i := range n {
			fw, err := mw.CreateFormFile("file", fmt.Sprintf("IMG_%04d.jpg", i))
			if err == nil {
				_, err = fw.Write(photo)
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequest(http.MethodPost, base+"/admin/reservations/"+strconv.FormatInt(id, 10)+"/photos", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	r, err := c.Do(req)
	if err != nil {
		return err
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusCreated {
		return fmt.Errorf("upload to reservation %d: %s %.300s", id, r.Status, b)
	}
	return nil
}

// procStatus is a field of /proc/PID/status in bytes (the kernel gives kB).
func procStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// cpuTime is the user + system time of process pid (/proc/PID/stat, in clock
// ticks of 1/100 s on Linux).
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
