# The runtime's wire protocol (Sources/ExtensionRuntime/RuntimeMessage.swift), spoken by extensions written in
# Python for the tests: hostile ones send what a Swift extension built on the runtime never would.
import array, os, socket, struct, sys

VERSION = 1
READY, LOAD, CANCEL_LOAD, OPEN_URL, COMPLETE, CANCEL, ALERT, DELIVER, CENTER = 1, 2, 3, 4, 5, 6, 7, 8, 9
REQUEST, LOADED, OPENED_URL, TIME_WARNING, PROGRESS, STREAM_ENDED, ENDED, NOTIFICATION, CENTER_ANSWER = 32, 33, 34, 35, 36, 37, 38, 39, 40
DATA, FILE, ITEM, FILE_IN_PLACE = 1, 2, 3, 4

def message(kind, body=b""):
    return b"OS" + bytes([VERSION, kind]) + body

def u32(value): return struct.pack("<I", value)
def u64(value): return struct.pack("<Q", value)
def string(text):
    data = text.encode() if isinstance(text, str) else text
    return u32(len(data)) + data
def optional(text): return b"\x00" if text is None else b"\x01" + string(text)
def error(domain, code, text): return string(domain) + u64(code & 0xFFFFFFFFFFFFFFFF) + string(text)

# Load results: (tag, body, descriptors).
def bytes_result(data): return (1, u32(len(data)) + data, [])
def memory_result(length, fd): return (2, u64(length), [fd])
def file_result(name, fd, in_place=False): return (3, string(name) + bytes([1 if in_place else 0]), [fd])
def url_result(url): return (4, string(url), [])
def text_result(text): return (5, string(text), [])
def plist_result(data): return (6, u32(len(data)) + data, [])
def failed_result(domain, code, text): return (7, error(domain, code, text), [])

def complete(items):
    """items: [(title, content, [(name, [(type, form, result)])])]; returns (body, descriptors)."""
    body, fds = u32(len(items)), []
    for title, content, attachments in items:
        body += optional(title) + optional(content) + (b"\x00" if attachments is None else b"\x01" + u32(len(attachments)))
        for name, representations in attachments or []:
            body += optional(name) + u32(len(representations))
            for type_identifier, form, result in representations:
                tag, payload, descriptors = result
                body += string(type_identifier) + bytes([form, 1, tag]) + payload
                fds += descriptors
    return body, fds

def f64(value): return struct.pack("<d", value)

def content(title="t", body="b", attachments=()):
    """A notification's content as the extension gives it back; attachments: [(identifier, url, type, carries_file)]."""
    out = string(title) + string("") + string(body) + b"\x00" + b"\x00" + string("") + b"\x08" + u32(0)
    out += u32(len(attachments))
    for identifier, url, type_identifier, carries in attachments:
        out += string(identifier) + string(url) + string(type_identifier) + b"\x00" + b"\x00" + f64(-1.0) + (b"\x01" if carries else b"\x00")
    # ... category, thread, target, interruption level, relevance, filter criteria, summary; no communication.
    return out + string("") + string("") + b"\x00" + bytes([1]) + f64(0.0) + b"\x00" + string("") + u64(0) + b"\x00"

def deliver(sock, index, body, fds=()):
    """Gives notification `index` its content (`content(...)`), its attachments' files as `fds`."""
    send_on(sock, message(DELIVER, u32(index) + body), fds)

def notification(sock):
    """Waits for the next notification: its index."""
    while True:
        kind, body, fds = receive(sock)
        if kind == NOTIFICATION:
            return struct.unpack("<I", body[:4])[0]

boot = socket.socket(fileno=3)

def connect(process=None):
    """The handshake: a socket pair of our own, one end handed over with ready; then the request."""
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    send_on(boot, message(READY, u32(os.getpid() if process is None else process) + b"\x01"), [theirs.fileno()])
    theirs.close()
    return mine

def send_on(sock, data, fds=()):
    if fds:
        sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", list(fds)))])
    else:
        sock.send(data)

def receive(sock):
    """One packet: (kind, body, descriptors)."""
    data, ancillary, _, _ = sock.recvmsg(70000, socket.CMSG_SPACE(16 * 4))
    fds = []
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += list(array.array("i", payload[: len(payload) - len(payload) % 4]))
    return (data[3] if len(data) > 3 else None), data[4:], fds

def cancel_saying(sock, text):
    """Ends the request by cancelling it with `text` as the error's description: how a script reports."""
    send_on(sock, message(CANCEL, error("probe", 1, text)))

def stay():
    """Stays until the host ends the process."""
    import time
    while True:
        time.sleep(60)
