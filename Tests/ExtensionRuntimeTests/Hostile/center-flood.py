# After its first notification, asks the notification center for the delivered notifications {COUNT} times
# and reads none of the answers.
from wire import *
host = connect()
notification(host)
for call in range({COUNT}):
    send_on(host, message(CENTER, u32(call) + b"\x03"))
stay()
