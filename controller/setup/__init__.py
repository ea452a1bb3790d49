"""Making a Raspberry Pi a table and keeping it one: ``install`` (the service user, SPI, the
udev rule, the systemd unit; or the club's broker), ``doctor`` (is the table ready, and what to
do if not), ``hub`` and ``flash`` (finding a reader hub, asking it, putting this install's
firmware on it) and ``token`` (the install's own token).

This room runs on the Pi: it never composes the service with the simulator (``doctor
--simulate`` borrows its virtual hubs from ``controller.compose``), and prints nothing of its
own; the command line (``tabletop install``, ``doctor``, ``hub``, ``token``) reads the options
and prints what it returns.
"""

SERVICE = "tabletop"
"""The systemd service ``tabletop install`` writes: it runs the table and holds the hubs'
ports."""
UNIT_PATH = f"/etc/systemd/system/{SERVICE}.service"
"""Where ``tabletop install`` puts that service's unit."""
