/* An instant Hub engine for English checkers, for benchmarks/harness_compare.py.

   It keeps the board the arbiter sends (`pos` and the moves after it), generates the legal moves itself
   (captures are compulsory, a jump goes on while it can, a man crowned by a jump stops there) and answers
   `go` at once with a random one of them. Nothing else: no search, no clock.

   Usage: instant_hub STAMPS_DIR SEED

   For the harness's "time added per move" it notes, on the monotonic clock shared by every process of
   the machine, when it wrote each answer (with a key of the position its move leads to) and when it
   read each `go` (with the key of the position it was given); the notes go to STAMPS_DIR/PID.stamps
   when it exits. Give "-" for no notes. */

#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { EMPTY = 'e', WMAN = 'w', BMAN = 'b', WKING = 'W', BKING = 'B' };

static char board[33]; /* squares 1..32; board[0] is the side to move, 'W' or 'B' */

/* Square geometry: row y 0..7 (square 1 on row 0), x 0..7, dark squares only. */
static int square_at(int x, int y) {
    if (x < 0 || x > 7 || y < 0 || y > 7 || ((x + y) & 1) == 0) return 0;
    return 4 * y + (x - (y % 2 == 0 ? 1 : 0)) / 2 + 1;
}
static void coords(int s, int *x, int *y) {
    *y = (s - 1) / 4;
    *x = 2 * ((s - 1) % 4) + (*y % 2 == 0 ? 1 : 0);
}

/* --- the notes for the harness ----------------------------------------------------------------- */

typedef struct { char kind; uint64_t key; long long at; } Stamp;
static Stamp *stamps;
static size_t stamp_count, stamp_room;
static char stamps_path[4096];

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
static uint64_t board_key(const char *b) { /* FNV-1a of the side to move and the 32 squares */
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < 33; i++) { h ^= (unsigned char)b[i]; h *= 1099511628211ULL; }
    return h;
}
static void note(char kind, uint64_t key, long long at) {
    if (!stamps_path[0]) return;
    if (stamp_count == stamp_room) {
        stamp_room = stamp_room ? stamp_room * 2 : 4096;
        stamps = realloc(stamps, stamp_room * sizeof *stamps);
        if (!stamps) exit(3);
    }
    stamps[stamp_count++] = (Stamp){kind, key, at};
}
static void write_stamps(void) {
    if (!stamps_path[0] || !stamp_count) return;
    FILE *f = fopen(stamps_path, "w");
    if (!f) return;
    for (size_t i = 0; i < stamp_count; i++)
        fprintf(f, "%c %llu %lld\n", stamps[i].kind, (unsigned long long)stamps[i].key, stamps[i].at);
    fclose(f);
    stamp_count = 0;
}
static void on_term(int sig) { (void)sig; write_stamps(); _exit(0); }

/* --- moves --------------------------------------------------------------------------------------- */

typedef struct { int from, to, n; int captured[12]; } Move;
static Move moves[64];
static int move_count;

static int own(char p, char side) { return side == 'W' ? (p == WMAN || p == WKING) : (p == BMAN || p == BKING); }
static int enemy(char p, char side) { return p != EMPTY && !own(p, side); }
static int crowns_on(int s, char man) { int x, y; coords(s, &x, &y); return man == WMAN ? y == 0 : y == 7; }

static void add_move(int from, int to, const int *captured, int n) {
    if (move_count == 64) return;
    Move *m = &moves[move_count++];
    m->from = from; m->to = to; m->n = n;
    memcpy(m->captured, captured, n * sizeof(int));
}

/* Every jump sequence of the piece that left `from`, now standing (in thought) on `at`. */
static void jumps(int from, int at, char piece, char side, int *captured, int n) {
    int x, y, found = 0;
    coords(at, &x, &y);
    int king = piece == WKING || piece == BKING;
    int forward = side == 'W' ? -1 : 1;
    for (int dy = -1; dy <= 1; dy += 2) {
        if (!king && dy != forward) continue;
        for (int dx = -1; dx <= 1; dx += 2) {
            int over = square_at(x + dx, y + dy), land = square_at(x + 2 * dx, y + 2 * dy);
            if (!over || !land || !enemy(board[over], side)) continue;
            if (board[land] != EMPTY && land != from) continue;
            int taken = 0;
            for (int i = 0; i < n; i++) taken |= captured[i] == over;
            if (taken) continue;
            found = 1;
            captured[n] = over;
            if (!king && crowns_on(land, piece)) add_move(from, land, captured, n + 1); /* crowned: stops */
            else jumps(from, land, piece, side, captured, n + 1);
        }
    }
    if (!found && n > 0) add_move(from, at, captured, n);
}

static void generate(void) {
    char side = board[0];
    int captured[12];
    move_count = 0;
    for (int s = 1; s <= 32; s++)
        if (own(board[s], side)) jumps(s, s, board[s], side, captured, 0);
    if (move_count) return;
    for (int s = 1; s <= 32; s++) {
        if (!own(board[s], side)) continue;
        int x, y, king = board[s] == WKING || board[s] == BKING, forward = side == 'W' ? -1 : 1;
        coords(s, &x, &y);
        for (int dy = -1; dy <= 1; dy += 2) {
            if (!king && dy != forward) continue;
            for (int dx = -1; dx <= 1; dx += 2) {
                int to = square_at(x + dx, y + dy);
                if (to && board[to] == EMPTY) add_move(s, to, captured, 0);
            }
        }
    }
}

/* Play a Hub move (start, end, captured squares) on the board; the arbiter has checked it. */
static void play_text(const char *text) {
    int squares[16], n = 0;
    const char *p = text;
    while (*p && n < 16) {
        squares[n++] = (int)strtol(p, (char **)&p, 10);
        if (*p == '-' || *p == 'x') p++;
        else break;
    }
    if (n < 2 || squares[0] < 1 || squares[0] > 32 || squares[1] < 1 || squares[1] > 32) return;
    char piece = board[squares[0]];
    board[squares[0]] = EMPTY;
    for (int i = 2; i < n; i++) if (squares[i] >= 1 && squares[i] <= 32) board[squares[i]] = EMPTY;
    if ((piece == WMAN || piece == BMAN) && crowns_on(squares[1], piece)) piece = piece == WMAN ? WKING : BKING;
    board[squares[1]] = piece;
    board[0] = board[0] == 'W' ? 'B' : 'W';
}

/* The value of `key=` in a Hub line (quoted or bare), copied into out. */
static int field(const char *line, const char *key, char *out, size_t room) {
    size_t k = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL; p += k) {
        if ((p != line && p[-1] != ' ') || p[k] != '=') continue;
        const char *v = p + k + 1;
        char end = ' ';
        if (*v == '"') { end = '"'; v++; }
        size_t n = 0;
        while (v[n] && v[n] != end && v[n] != '\n' && n + 1 < room) n++;
        memcpy(out, v, n);
        out[n] = 0;
        return 1;
    }
    return 0;
}

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t next_random(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return rng_state;
}

static void say(const char *text) {
    size_t n = strlen(text), done = 0;
    while (done < n) {
        ssize_t w = write(1, text + done, n - done);
        if (w <= 0) exit(0);
        done += (size_t)w;
    }
}

static void answer(void) {
    char out[96];
    generate();
    if (!move_count) { say("done resign\n"); return; }
    Move *m = &moves[next_random() % (uint64_t)move_count];
    int len = snprintf(out, sizeof out, "done move=%d%c%d", m->from, m->n ? 'x' : '-', m->to);
    for (int i = 0; i < m->n; i++) len += snprintf(out + len, sizeof out - len, "x%d", m->captured[i]);
    snprintf(out + len, sizeof out - len, "\n");
    char after[33];
    memcpy(after, board, 33);
    char piece = after[m->from];
    after[m->from] = EMPTY;
    for (int i = 0; i < m->n; i++) after[m->captured[i]] = EMPTY;
    if ((piece == WMAN || piece == BMAN) && crowns_on(m->to, piece)) piece = piece == WMAN ? WKING : BKING;
    after[m->to] = piece;
    after[0] = board[0] == 'W' ? 'B' : 'W';
    long long at = now_ns();
    say(out);
    note('s', board_key(after), at);
}

static void handle(char *line, long long at) {
    char value[4096];
    if (!strncmp(line, "hub", 3) && (line[3] == 0 || line[3] == ' ')) {
        say("id name=instant-hub version=1 author=arbiter\nwait\n");
    } else if (!strncmp(line, "init", 4)) {
        say("ready\n");
    } else if (!strncmp(line, "ping", 4)) {
        say("pong\n");
    } else if (!strncmp(line, "pos ", 4)) {
        if (field(line, "pos", value, sizeof value) && strlen(value) == 33) memcpy(board, value, 33);
        if (field(line, "moves", value, sizeof value))
            for (char *word = strtok(value, " "); word; word = strtok(NULL, " ")) play_text(word);
    } else if (!strncmp(line, "go", 2) && (line[2] == 0 || line[2] == ' ')) {
        note('g', board_key(board), at);
        answer();
    } else if (!strncmp(line, "quit", 4)) {
        write_stamps();
        exit(0);
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "-") != 0)
        snprintf(stamps_path, sizeof stamps_path, "%s/%d.stamps", argv[1], (int)getpid());
    if (argc > 2) rng_state ^= strtoull(argv[2], NULL, 10) * 0x9E3779B97F4A7C15ULL;
    if (!rng_state) rng_state = 1;
    signal(SIGTERM, on_term);
#ifdef SIGPIPE /* none on Windows, where a write to a closed pipe fails instead */
    signal(SIGPIPE, SIG_IGN);
#endif
    memcpy(board, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", 33);
    static char buffer[1 << 16];
    size_t used = 0;
    for (;;) {
        ssize_t got = read(0, buffer + used, sizeof buffer - 1 - used);
        if (got <= 0) break;
        long long at = now_ns(); /* when the lines of this read arrived */
        used += (size_t)got;
        size_t start = 0;
        for (size_t i = 0; i < used; i++) {
            if (buffer[i] != '\n') continue;
            buffer[i] = 0;
            if (i > start && buffer[i - 1] == '\r') buffer[i - 1] = 0;
            handle(buffer + start, at);
            start = i + 1;
        }
        memmove(buffer, buffer + start, used - start);
        used -= start;
        if (used == sizeof buffer - 1) used = 0; /* a line too long to be ours: dropped */
    }
    write_stamps();
    return 0;
}
