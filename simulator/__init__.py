"""Virtual hardware for tabletop (docs/simulator.md): it replaces hardware, not code paths.

- `virtual_table.VirtualTable`: pieces on sites, the hub, the buttons and the strip together;
- `virtual_hub.VirtualHub`: the real firmware (`firmware/hub.py`) on a pty, with cable faults;
- `virtual_readers`: readers and the tags in their fields, with reader faults;
- `virtual_tags.TagSet`: a fixed UID for every piece copy, exportable to the tag registry;
- `virtual_buttons.VirtualButtons`, `virtual_strip.VirtualStrip`: gpiozero mock pins, LED strip;
- `steps`, `scenario`, `scenario_runner`: scripted physical steps and expectations;
- `autoplay.AutoplayBot`: whole games played with virtual hands, mistakes included.

This package imports `hardware` and `games`, never `controller` (see docs/simulator.md).
"""
