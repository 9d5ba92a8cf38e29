/* A small engine with the CheckerBoard API (getmove, enginecommand, islegal), written for the
 * arbiter's tests. It plays a legal move chosen by a fixed pseudo-random sequence, in English
 * (the default) or Russian (-DRUSSIAN).
 *
 * Misbehaving builds, one macro each:
 *   -DCB_CRASH=N          segmentation fault in getmove, from its Nth call on (the arbiter's adapter makes
 *                         the first call itself, a warm-up before the first game: N=2 crashes in the
 *                         first search of a game, N=1 while the engine sets itself up)
 *   -DCB_HANG=N           getmove never returns, from its Nth call on
 *   -DCB_SLOW_FIRST=S     the first getmove waits S seconds before it searches, as engines that load
 *                         their book or endgame databases in their first getmove do; its "about" says
 *                         so once that is done, as Cake's and GuiNN's say what they loaded
 *   -DCB_ILLEGAL          hands back a board no legal move leads to
 *   -DCB_PRINTF           prints its search to stdout, as some engines do
 *   -DCB_IGNORE_PLAYNOW   thinks three times maxtime and never looks at *playnow
 *   -DCB_NO_GAMEHIST      does not handle "set gamehist"
 *   -DCB_SET_SAYS_0       returns 0 from "set" as Cake does for some options: "set hashsize" is taken all
 *                         the same, "set seed" is not
 *   -DCB_DEEP_STACK       uses 6 MB of stack in getmove, as a deep search with large frames may
 *                         (CheckerBoard runs its engines with 8 MB)
 *   -DCB_REGISTRY         (Windows) keeps its hash size in the registry, as engines written for
 *                         CheckerBoard keep their settings: "set hashsize" stores it, "get hashsize" reads it
 *
 * "set seed N" changes the sequence its moves are chosen by.
 * With "set think N" the well-behaved build thinks until *playnow is set or N times maxtime has passed, so
 * the adapter's time flags and its watchdog can be seen at work. Every call is noted on stderr.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef _WIN32
#define CBEXPORT __declspec(dllexport)
#define CBCALL __stdcall
#else
#define CBEXPORT __attribute__((visibility("default")))
#define CBCALL
#endif

#define FREE 0
#define WHITE 1
#define BLACK 2
#define MAN 4
#define KING 8
#define TAKEN 16 /* a captured piece still on the board until the capture ends */
#define EXACT_TIME 2

#ifdef RUSSIAN
#define GAMETYPE 25
#define FLYING 1
#define MEN_CAPTURE_BACK 1
#else
#define GAMETYPE 21
#define FLYING 0
#define MEN_CAPTURE_BACK 0
#endif

struct coor {
    int x;
    int y;
};

struct CBmove {
    int jumps;
    int newpiece;
    int oldpiece;
    struct coor from, to;
    struct coor path[12];
    struct coor del[12];
    int delpiece[12];
};

typedef struct {
    int fx, fy, tx, ty;
    int ncap;
    int cap[12][2];
    int newpiece, oldpiece;
} Move;

#define MAXMOVES 128

static int think = 0;
static int getmove_calls = 0;
#ifdef CB_SLOW_FIRST
static volatile int set_up = 0; /* its first getmove's wait is over */
#endif
static int hashsize = 16;
static unsigned int seed = 12345;

#if defined(CB_REGISTRY) && defined(_WIN32)
#include <windows.h>
#define SETTINGS_KEY "Software\\ArbiterTestEngine"

static void store_hashsize(int value) {
    HKEY key;
    DWORD data = (DWORD)value;
    if (RegCreateKeyExA(HKEY_CURRENT_USER, SETTINGS_KEY, 0, NULL, 0, KEY_WRITE, NULL, &key, NULL) != ERROR_SUCCESS)
        return;
    RegSetValueExA(key, "hashsize", 0, REG_DWORD, (const BYTE *)&data, sizeof data);
    RegCloseKey(key);
}

static int stored_hashsize(int fallback) {
    HKEY key;
    DWORD data = 0, size = sizeof data;
    if (RegOpenKeyExA(HKEY_CURRENT_USER, SETTINGS_KEY, 0, KEY_READ, &key) != ERROR_SUCCESS) return fallback;
    LONG found = RegQueryValueExA(key, "hashsize", NULL, NULL, (BYTE *)&data, &size);
    RegCloseKey(key);
    return found == ERROR_SUCCESS ? (int)data : fallback;
}
#else
static void store_hashsize(int value) { (void)value; }
static int stored_hashsize(int fallback) { return fallback; }
#endif

static int on_board(int x, int y) { return x >= 0 && x < 8 && y >= 0 && y < 8; }
static int forward(int color) { return color == BLACK ? 1 : -1; }
static int crown_row(int color) { return color == BLACK ? 7 : 0; }

static void add(Move *list, int *n, const Move *m) {
    if (*n < MAXMOVES) list[(*n)++] = *m;
}

/* Continue a capture from (x, y); b has the mover lifted and the captured pieces marked TAKEN. */
static void capture_from(int b[8][8], int color, int x, int y, int king, Move *cur, Move *list, int *n);

static int try_capture(int b[8][8], int color, int x, int y, int king, int dx, int dy, Move *cur,
                       Move *list, int *n, int dry) {
    int opponent = color ^ 3;
    int cx = x + dx, cy = y + dy;
    int found = 0;
    if (king && FLYING) {
        while (on_board(cx, cy) && b[cx][cy] == FREE) { cx += dx; cy += dy; }
    }
    if (!on_board(cx, cy) || !(b[cx][cy] & opponent) || (b[cx][cy] & TAKEN)) return 0;
    int lx = cx + dx, ly = cy + dy;
    /* Landing squares: one for a short piece, every empty one beyond for a flying king; where some
     * landing square lets the capture go on, only those may be chosen (Russian rules). */
    int lands[8][2], nl = 0, goes_on[8];
    while (on_board(lx, ly) && b[lx][ly] == FREE) {
        lands[nl][0] = lx; lands[nl][1] = ly; nl++;
        if (!(king && FLYING)) break;
        lx += dx; ly += dy;
    }
    if (nl == 0) return 0;
    if (dry) return 1;
    int saved = b[cx][cy];
    b[cx][cy] |= TAKEN;
    int any_goes_on = 0;
    for (int i = 0; i < nl; i++) {
        int crowned = !king && lands[i][1] == crown_row(color);
        int k = king || (crowned && FLYING);
        goes_on[i] = 0;
        if (!(crowned && !FLYING)) {
            for (int d = 0; d < 4 && !goes_on[i]; d++) {
                int ddx = d & 1 ? 1 : -1, ddy = d & 2 ? 1 : -1;
                if (!k && !MEN_CAPTURE_BACK && ddy != forward(color)) continue;
                Move dummy;
                goes_on[i] = try_capture(b, color, lands[i][0], lands[i][1], k, ddx, ddy, &dummy, list, n, 1);
            }
        }
        any_goes_on |= goes_on[i];
    }
    for (int i = 0; i < nl; i++) {
        if (any_goes_on && !goes_on[i]) continue;
        Move next = *cur;
        next.cap[next.ncap][0] = cx;
        next.cap[next.ncap][1] = cy;
        next.ncap++;
        int crowned = !king && lands[i][1] == crown_row(color);
        int k = king || crowned;
        if (goes_on[i]) {
            capture_from(b, color, lands[i][0], lands[i][1], k, &next, list, n);
        } else {
            next.tx = lands[i][0];
            next.ty = lands[i][1];
            next.newpiece = color | (k ? KING : MAN);
            add(list, n, &next);
        }
        found = 1;
    }
    b[cx][cy] = saved;
    return found;
}

static void capture_from(int b[8][8], int color, int x, int y, int king, Move *cur, Move *list, int *n) {
    for (int d = 0; d < 4; d++) {
        int dx = d & 1 ? 1 : -1, dy = d & 2 ? 1 : -1;
        if (!king && !MEN_CAPTURE_BACK && dy != forward(color)) continue;
        try_capture(b, color, x, y, king, dx, dy, cur, list, n, 0);
    }
}

static int generate(int b[8][8], int color, Move *list) {
    int n = 0;
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            if (!(b[x][y] & color)) continue;
            int king = (b[x][y] & KING) != 0;
            Move m;
            memset(&m, 0, sizeof m);
            m.fx = x; m.fy = y; m.oldpiece = b[x][y];
            int piece = b[x][y];
            b[x][y] = FREE;
            capture_from(b, color, x, y, king, &m, list, &n);
            b[x][y] = piece;
        }
    if (n > 0) return n;
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            if (!(b[x][y] & color)) continue;
            int king = (b[x][y] & KING) != 0;
            for (int d = 0; d < 4; d++) {
                int dx = d & 1 ? 1 : -1, dy = d & 2 ? 1 : -1;
                if (!king && dy != forward(color)) continue;
                int tx = x + dx, ty = y + dy;
                while (on_board(tx, ty) && b[tx][ty] == FREE) {
                    Move m;
                    memset(&m, 0, sizeof m);
                    m.fx = x; m.fy = y; m.tx = tx; m.ty = ty; m.oldpiece = b[x][y];
                    m.newpiece = king || ty == crown_row(color) ? color | KING : color | MAN;
                    add(list, &n, &m);
                    if (!(king && FLYING)) break;
                    tx += dx; ty += dy;
                }
            }
        }
    return n;
}

static void play(int b[8][8], const Move *m) {
    b[m->fx][m->fy] = FREE;
    for (int i = 0; i < m->ncap; i++) b[m->cap[i][0]][m->cap[i][1]] = FREE;
    b[m->tx][m->ty] = m->newpiece;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void wait_for(double seconds, volatile int *playnow, int watch) {
    double until = now() + seconds;
    while (now() < until) {
        if (watch && *playnow) return;
        usleep(1000);
    }
}

#ifdef CB_DEEP_STACK
static int deep_frame(void) {
    volatile char frame[6 * 1024 * 1024];
    for (size_t i = 0; i < sizeof frame; i += 4096) frame[i] = (char)i;
    return frame[sizeof frame - 4096];
}
#endif

CBEXPORT int CBCALL getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                            int info, int moreinfo, struct CBmove *move) {
    fprintf(stderr, "getmove color=%d maxtime=%.4f info=%d moreinfo=%d\n", color, maxtime, info, moreinfo);
    fflush(stderr);
    getmove_calls++;
#ifdef CB_SLOW_FIRST
    if (getmove_calls == 1) {
        wait_for(CB_SLOW_FIRST, playnow, 0);
        fprintf(stderr, "set up in %.1f s\n", (double)CB_SLOW_FIRST);
        fflush(stderr);
        set_up = 1;
    }
#endif
#ifdef CB_DEEP_STACK
    fprintf(stderr, "deep frame %d\n", deep_frame());
    fflush(stderr);
#endif
#ifdef CB_CRASH
    if (getmove_calls >= CB_CRASH) {
#ifdef _WIN32
    /* raise() only exits on Windows: a real access violation, through a pointer the compiler cannot know */
    static int *volatile nowhere = NULL;
    *nowhere = 1;
#else
    raise(SIGSEGV);
#endif
    }
#endif
#ifdef CB_HANG
    if (getmove_calls >= CB_HANG)
        for (;;) sleep(1);
#endif
#ifdef CB_PRINTF
    printf("searching: depth 1 nodes 1 - this text must never reach the arbiter's protocol\n");
    fflush(stdout);
#endif
#ifdef CB_IGNORE_PLAYNOW
    wait_for(3 * maxtime, playnow, 0);
#else
    if (think) wait_for(think * maxtime, (volatile int *)playnow, 1);
#endif
    if (*playnow) fprintf(stderr, "playnow seen\n");
    Move list[MAXMOVES];
    int n = generate(board, color, list);
    if (n == 0) {
        sprintf(str, "no legal move");
        return 2;
    }
#ifdef CB_ILLEGAL
    /* A man of the mover jumps to the first empty dark square it finds: no rule allows that. */
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++)
            if (board[x][y] & color) {
                for (int u = 0; u < 8; u++)
                    for (int v = 0; v < 8; v++)
                        if ((u + v) % 2 == 0 && board[u][v] == FREE && (u != x + 1 && u != x - 1)) {
                            board[u][v] = board[x][y];
                            board[x][y] = FREE;
                            sprintf(str, "a move no rule allows");
                            return 3;
                        }
            }
#endif
    seed = seed * 1103515245u + 12345u;
    const Move *m = &list[(seed >> 16) % n];
    play(board, m);
    memset(move, 0, sizeof *move);
#ifdef RUSSIAN
    move->jumps = m->ncap;
    move->oldpiece = m->oldpiece;
    move->newpiece = m->newpiece;
    move->from.x = m->fx; move->from.y = m->fy;
    move->to.x = m->tx; move->to.y = m->ty;
    for (int i = 0; i < m->ncap; i++) {
        move->del[i].x = m->cap[i][0];
        move->del[i].y = m->cap[i][1];
    }
#endif
    snprintf(str, 1024, "depth 1, %d moves, chose %d", n, (int)(m - list));
    return 3;
}

CBEXPORT int CBCALL enginecommand(char command[256], char reply[1024]) {
    char name[64];
    int value;
    reply[0] = 0;
#ifdef CB_PRINTF
    printf("enginecommand %s\n", command);
    fflush(stdout);
#endif
    if (strcmp(command, "name") == 0) {
        sprintf(reply, GAMETYPE == 25 ? "Test engine (Russian)" : "Test engine (English)");
        return 1;
    }
    if (strcmp(command, "about") == 0) {
        sprintf(reply, "A small CheckerBoard engine\nwritten for the arbiter's tests");
#ifdef CB_SLOW_FIRST
        strcat(reply, !set_up ? "\nnot set up yet" : "\nbook loaded in its first getmove");
#endif
        return 1;
    }
    if (strcmp(command, "get protocolversion") == 0) {
        sprintf(reply, "2");
        return 1;
    }
    if (strcmp(command, "get gametype") == 0) {
        sprintf(reply, "%d", GAMETYPE);
        return 1;
    }
    if (strcmp(command, "get hashsize") == 0) {
        hashsize = stored_hashsize(hashsize);
        sprintf(reply, "%d", hashsize);
        return 1;
    }
    if (strcmp(command, "get seed") == 0) {
        sprintf(reply, "%u", seed);
        return 1;
    }
    if (strcmp(command, "get think") == 0) {
        sprintf(reply, "%d", think);
        return 1;
    }
    if (strncmp(command, "set gamehist ", 13) == 0) {
#ifdef CB_NO_GAMEHIST
        fprintf(stderr, "gamehist refused\n");
        fflush(stderr);
        return 0;
#else
        fprintf(stderr, "gamehist %s\n", command + 13);
        fflush(stderr);
        sprintf(reply, "ok");
        return 1;
#endif
    }
    if (sscanf(command, "set %63s %d", name, &value) == 2) {
        fprintf(stderr, "set %s %d\n", name, value);
        fflush(stderr);
        if (strcmp(name, "hashsize") == 0) {
            hashsize = value;
            store_hashsize(value);
            sprintf(reply, "hash size set to %d", value);
#ifdef CB_SET_SAYS_0
            return 0;
#else
            return 1;
#endif
        }
#ifdef CB_SET_SAYS_0
        if (strcmp(name, "seed") == 0) {
            sprintf(reply, "seed stays %u", seed);
            return 0;
        }
#endif
        if (strcmp(name, "think") == 0) {
            think = value;
            return 1;
        }
        if (strcmp(name, "seed") == 0) {
            seed = (unsigned int)value;
            return 1;
        }
    }
    sprintf(reply, "?");
    return 0;
}

CBEXPORT int CBCALL islegal(int board[8][8], int color, int from, int to, struct CBmove *move) {
    (void)board; (void)color; (void)from; (void)to; (void)move;
    return 0;
}
