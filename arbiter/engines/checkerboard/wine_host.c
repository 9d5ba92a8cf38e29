/* The Wine host: loads one Windows CheckerBoard engine DLL and relays its calls over stdin/stdout.
 *
 *     wine wine_host64.exe Z:\path\engine.dll
 *
 * Built with MinGW-w64 by arbiter/engines/checkerboard/wine_build.py (64-bit and 32-bit hosts from
 * this one source). The adapter's RelayLibrary (relay.py) is the other end of the protocol.
 *
 * Frames, both ways: the 4 bytes "CBRL", a little-endian uint32 kind (one ASCII letter), a
 * little-endian uint32 payload length, the payload. Integers are little-endian int32.
 *   to the host:   G getmove   board[8][8] (x major), color, maxtime (double), info, moreinfo
 *                  E command   the text of enginecommand's command
 *                  P playnow   the new value of *playnow (handled at once, even while getmove runs)
 *                  Q quit      flush the C library's buffers and end
 *   from the host: H hello     pointer size in bits, then the names the functions were found under
 *                  X error     why the DLL cannot be used (the host then ends)
 *                  R reply     getmove's result, board[8][8], struct CBmove (67 ints), str's text
 *                  C reply     enginecommand's result, the reply's text
 *                  F fault     the exception code and address of an exception nobody handled
 *
 * The protocol goes to a private duplicate of the standard output handle; the standard output the
 * engine sees (its C library's stdout and STD_OUTPUT_HANDLE) is pointed at stderr, the engine's log.
 * Requests are read on a thread of their own, so a P frame sets *playnow while getmove runs on the
 * main thread.
 */
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <string.h>

#define MAGIC "CBRL"
#define MAX_PAYLOAD 65536
#define TEXT_SIZE 1024
#define COMMAND_SIZE 256

struct coor { int x, y; };
struct CBmove {
    int jumps, newpiece, oldpiece;
    struct coor from, to;
    struct coor path[12];
    struct coor del[12];
    int delpiece[12];
};

typedef int(WINAPI *getmove_fn)(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                                int info, int moreinfo, struct CBmove *move);
typedef int(WINAPI *enginecommand_fn)(char command[256], char reply[1024]);

static HANDLE protocol_out, protocol_in;
static CRITICAL_SECTION write_lock;
static volatile LONG playnow;
static getmove_fn getmove;
static enginecommand_fn enginecommand;

/* One request at a time is handed from the reader to the main thread (the adapter waits for each
 * reply before it sends the next G or E). */
static HANDLE job_ready;
static DWORD job_kind, job_length;
static unsigned char job[MAX_PAYLOAD];

static void put_int(unsigned char *at, DWORD value) {
    at[0] = value & 0xff; at[1] = (value >> 8) & 0xff; at[2] = (value >> 16) & 0xff; at[3] = value >> 24;
}

static DWORD get_int(const unsigned char *at) {
    return at[0] | (at[1] << 8) | (at[2] << 16) | ((DWORD)at[3] << 24);
}

static void write_all(const void *data, DWORD length) {
    const char *at = data;
    while (length > 0) {
        DWORD written = 0;
        if (!WriteFile(protocol_out, at, length, &written, NULL) || written == 0) TerminateProcess(GetCurrentProcess(), 1);
        at += written;
        length -= written;
    }
}

static void send_frame(char kind, const void *payload, DWORD length) {
    unsigned char header[12];
    memcpy(header, MAGIC, 4);
    put_int(header + 4, (DWORD)kind);
    put_int(header + 8, length);
    EnterCriticalSection(&write_lock);
    write_all(header, 12);
    if (length > 0) write_all(payload, length);
    LeaveCriticalSection(&write_lock);
}

static void send_text(char kind, const char *text) { send_frame(kind, text, (DWORD)strlen(text)); }

static int read_all(void *data, DWORD length) {
    char *at = data;
    while (length > 0) {
        DWORD got = 0;
        if (!ReadFile(protocol_in, at, length, &got, NULL) || got == 0) return 0;
        at += got;
        length -= got;
    }
    return 1;
}

static void finish(UINT code) {
    fflush(NULL);
    /* Not ExitProcess: a getmove that never returns must not keep the process alive. */
    TerminateProcess(GetCurrentProcess(), code);
}

static LONG WINAPI unhandled(EXCEPTION_POINTERS *info) {
    unsigned char payload[4 + 64];
    DWORD code = info->ExceptionRecord->ExceptionCode;
    put_int(payload, code);
    int n = snprintf((char *)payload + 4, 64, "%p", info->ExceptionRecord->ExceptionAddress);
    send_frame('F', payload, 4 + (DWORD)(n > 0 ? n : 0));
    finish(code);
    return EXCEPTION_EXECUTE_HANDLER;
}

static DWORD WINAPI reader(LPVOID unused) {
    (void)unused;
    unsigned char header[12];
    static unsigned char payload[MAX_PAYLOAD];
    for (;;) {
        if (!read_all(header, 12) || memcmp(header, MAGIC, 4) != 0) finish(0);
        DWORD kind = get_int(header + 4), length = get_int(header + 8);
        if (length > MAX_PAYLOAD || !read_all(payload, length)) finish(0);
        if (kind == 'P' && length >= 4) {
            InterlockedExchange(&playnow, (LONG)get_int(payload));
        } else if (kind == 'Q') {
            finish(0);
        } else if (kind == 'G' || kind == 'E') {
            memcpy(job, payload, length);
            job_kind = kind;
            job_length = length;
            SetEvent(job_ready);
        }
    }
    return 0;
}

static void run_getmove(void) {
    int board[8][8];
    double maxtime;
    char text[TEXT_SIZE];
    struct CBmove move;
    unsigned char reply[4 + 256 + sizeof(struct CBmove) + TEXT_SIZE];
    if (job_length < 256 + 20) return;
    for (int i = 0; i < 64; i++) board[i / 8][i % 8] = (int)get_int(job + 4 * i);
    int color = (int)get_int(job + 256);
    memcpy(&maxtime, job + 260, 8);
    int info = (int)get_int(job + 268), moreinfo = (int)get_int(job + 272);
    memset(text, 0, sizeof text);
    memset(&move, 0, sizeof move);
    int result = getmove(board, color, maxtime, text, (int *)&playnow, info, moreinfo, &move);
    text[TEXT_SIZE - 1] = 0;
    put_int(reply, (DWORD)result);
    for (int i = 0; i < 64; i++) put_int(reply + 4 + 4 * i, (DWORD)board[i / 8][i % 8]);
    const int *fields = (const int *)&move;
    for (size_t i = 0; i < sizeof move / sizeof(int); i++) put_int(reply + 260 + 4 * i, (DWORD)fields[i]);
    size_t length = strlen(text);
    memcpy(reply + 260 + sizeof move, text, length);
    send_frame('R', reply, (DWORD)(260 + sizeof move + length));
}

static void run_enginecommand(void) {
    /* The API declares 256 bytes, but CheckerBoard sends a long `set gamehist` whole, and so does this. */
    static char command[MAX_PAYLOAD + 1];
    char answer[TEXT_SIZE];
    unsigned char reply[4 + TEXT_SIZE];
    memset(command, 0, job_length < COMMAND_SIZE ? COMMAND_SIZE : job_length + 1);
    memcpy(command, job, job_length);
    memset(answer, 0, sizeof answer);
    int handled = enginecommand(command, answer);
    answer[TEXT_SIZE - 1] = 0;
    put_int(reply, (DWORD)handled);
    size_t n = strlen(answer);
    memcpy(reply + 4, answer, n);
    send_frame('C', reply, (DWORD)(4 + n));
}

/* The function under its plain name, or decorated as 32-bit stdcall exports are (_name@N, name@N). */
static FARPROC find(HMODULE dll, const char *name, int arg_bytes, char *found, size_t found_size) {
    char decorated[64];
    const char *forms[] = {"%s", "_%s@%d", "%s@%d"};
    for (int i = 0; i < 3; i++) {
        snprintf(decorated, sizeof decorated, forms[i], name, arg_bytes);
        FARPROC address = GetProcAddress(dll, decorated);
        if (address != NULL) {
            snprintf(found, found_size, "%s", decorated);
            return address;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
    SetUnhandledExceptionFilter(unhandled);
    InitializeCriticalSection(&write_lock);
    HANDLE self = GetCurrentProcess();
    DuplicateHandle(self, GetStdHandle(STD_OUTPUT_HANDLE), self, &protocol_out, 0, FALSE, DUPLICATE_SAME_ACCESS);
    protocol_in = GetStdHandle(STD_INPUT_HANDLE);
    /* What the engine prints goes to its log, never into the protocol. */
    SetStdHandle(STD_OUTPUT_HANDLE, GetStdHandle(STD_ERROR_HANDLE));
    fflush(stdout);
    _dup2(_fileno(stderr), _fileno(stdout));
    job_ready = CreateEvent(NULL, FALSE, FALSE, NULL);

    char message[600];
    if (argc != 2) {
        send_text('X', "usage: wine_host.exe ENGINE.DLL");
        finish(2);
    }
    HMODULE dll = LoadLibraryExA(argv[1], NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
    if (dll == NULL) {
        snprintf(message, sizeof message, "cannot load %s: Windows error %lu", argv[1], GetLastError());
        send_text('X', message);
        finish(2);
    }
    char getmove_name[64], command_name[64];
    getmove = (getmove_fn)(void (*)(void))find(dll, "getmove", 36, getmove_name, sizeof getmove_name);
    enginecommand = (enginecommand_fn)(void (*)(void))find(dll, "enginecommand", 8, command_name, sizeof command_name);
    if (getmove == NULL || enginecommand == NULL) {
        snprintf(message, sizeof message, "%s is not a CheckerBoard engine: it exports no %s", argv[1],
                 getmove == NULL ? "getmove" : "enginecommand");
        send_text('X', message);
        finish(2);
    }
    snprintf(message, sizeof message, "%d %s %s", (int)(8 * sizeof(void *)), getmove_name, command_name);
    send_text('H', message);

    if (CreateThread(NULL, 0, reader, NULL, 0, NULL) == NULL) finish(1);
    for (;;) {
        WaitForSingleObject(job_ready, INFINITE);
        if (job_kind == 'G') run_getmove();
        else run_enginecommand();
    }
}
