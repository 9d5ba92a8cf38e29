/* An instant UCI chess engine for benchmarks/harness_compare.py, to run cutechess-cli or fastchess the
   way the arbiter is run: it answers `go` at once.

   It does not search or generate moves: every pawn of its side steps twice, in a random order (pawns
   stop on the 4th and 5th ranks, so no pawn ever meets another, and nothing can give check), then its
   knights make six moves that repeat no position and then go back and forth twice between a2 and c3
   (a7 and c6 for Black): the position after ply 44 comes back after plies 48 and 52, and the harness
   ends the game there as a draw by threefold repetition, by the rules it checks itself. 52 plies in
   all, with no capture or check (beyond them the engine answers `bestmove 0000`). The random order
   makes the games differ from one another.

   It prints no `info` line, like instant_hub.c. That is also why the game is ended by a repetition and
   not by the harness's move limit: cutechess-cli takes a move that comes without a search depth for a
   forced one (a book or user move) and skips its adjudications, the move limit included.

   Usage: instant_uci STAMPS_DIR

   Like instant_hub.c it notes when it wrote each `bestmove` and read each `go`, keyed by the moves of
   the game so far, in STAMPS_DIR/PID.stamps when it exits ("-": no notes). */

#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* White's knight moves once the pawns stand on the 4th rank; Black plays them mirrored (rank r -> 9 - r).
   The last four repeat the position reached by the sixth twice more. */
static const char *const tour[] = {
    "b1c3", "g1h3", "c3a2", "h3f2", "f2d3", "d3b2", "a2c3", "c3a2", "a2c3", "c3a2",
};
enum { PAWN_MOVES = 16, TOUR_MOVES = sizeof tour / sizeof tour[0] };

typedef struct { char kind; uint64_t key; long long at; } Stamp;
static Stamp *stamps;
static size_t stamp_count, stamp_room;
static char stamps_path[4096];

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
static uint64_t fnv(uint64_t h, const char *text) {
    for (; *text; text++) { h ^= (unsigned char)*text; h *= 1099511628211ULL; }
    h ^= ' '; h *= 1099511628211ULL;
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

static void say(const char *text) {
    size_t n = strlen(text), done = 0;
    while (done < n) {
        ssize_t w = write(1, text + done, n - done);
        if (w <= 0) exit(0);
        done += (size_t)w;
    }
}

static int plies;         /* moves in the last `position` */
static uint64_t game_key;  /* the key of those moves */
static int pawn_steps[2][8]; /* per side (0 White, 1 Black) and file: steps its pawn has made */

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t next_random(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return rng_state;
}

static void position(char *line) {
    game_key = 1469598103934665603ULL;
    plies = 0;
    memset(pawn_steps, 0, sizeof pawn_steps);
    char *moves = strstr(line, " moves ");
    if (!moves) return;
    for (char *word = strtok(moves + 7, " "); word; word = strtok(NULL, " ")) {
        game_key = fnv(game_key, word);
        int side = plies % 2, own_moves = plies / 2;
        if (own_moves < PAWN_MOVES && word[0] >= 'a' && word[0] <= 'h') pawn_steps[side][word[0] - 'a']++;
        plies++;
    }
}

/* The move to play after `plies` moves: a random pawn step, or the next step of the tour. */
static void next_move(char *move) {
    int side = plies % 2, own_moves = plies / 2;
    if (own_moves >= PAWN_MOVES + TOUR_MOVES) {
        strcpy(move, "0000");
    } else if (own_moves >= PAWN_MOVES) {
        strcpy(move, tour[own_moves - PAWN_MOVES]);
        if (side) { move[1] = (char)('9' - move[1] + '0'); move[3] = (char)('9' - move[3] + '0'); }
    } else {
        int files[8], n = 0;
        for (int f = 0; f < 8; f++) if (pawn_steps[side][f] < 2) files[n++] = f;
        int f = n ? files[next_random() % (uint64_t)n] : 0;
        int rank = side ? 7 - pawn_steps[side][f] : 2 + pawn_steps[side][f];
        move[0] = move[2] = (char)('a' + f);
        move[1] = (char)('0' + rank);
        move[3] = (char)('0' + (side ? rank - 1 : rank + 1));
        move[4] = 0;
    }
}

static void handle(char *line, long long at) {
    if (!strcmp(line, "uci")) {
        say("id name instant-uci\nid author arbiter\nuciok\n");
    } else if (!strcmp(line, "isready")) {
        say("readyok\n");
    } else if (!strncmp(line, "position", 8)) {
        position(line);
    } else if (!strncmp(line, "go", 2) && (line[2] == 0 || line[2] == ' ')) {
        note('g', game_key, at);
        char out[64], move[8];
        next_move(move);
        snprintf(out, sizeof out, "bestmove %s\n", move);
        long long sent = now_ns();
        say(out);
        note('s', fnv(game_key, move), sent);
    } else if (!strcmp(line, "quit")) {
        write_stamps();
        exit(0);
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "-") != 0)
        snprintf(stamps_path, sizeof stamps_path, "%s/%d.stamps", argv[1], (int)getpid());
    rng_state ^= (uint64_t)getpid() * 0x9E3779B97F4A7C15ULL;
    signal(SIGTERM, on_term);
    signal(SIGPIPE, SIG_IGN);
    static char buffer[1 << 16];
    size_t used = 0;
    for (;;) {
        ssize_t got = read(0, buffer + used, sizeof buffer - 1 - used);
        if (got <= 0) break;
        long long at = now_ns();
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
        if (used == sizeof buffer - 1) used = 0;
    }
    write_stamps();
    return 0;
}
