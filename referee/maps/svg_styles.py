"""The maps' SVG styles, on their own: each is written into its SVG as one <style> element,
which the Content-Security-Policy allows by its hash (``settings.CSP_STYLE_HASHES``), so
this module imports nothing and settings can read it."""

STYLE = """
.bg{fill:#0b1020}.grid{stroke:#1e2a48;stroke-width:1}.star{fill:#ffd45e;stroke:#fff3b0;stroke-width:2}
.jp{fill:none;stroke:#7fd4ff;stroke-width:2}.pp{fill:none;stroke:#ff8f6b;stroke-width:2;stroke-dasharray:4 3}
.ship circle{fill:#cfe3ff;stroke:#0b1020;stroke-width:1.5}.ship.unshared circle{fill:#b9a3ff}
.ship path{fill:#cfe3ff}.ship text,.lbl{fill:#e8eefc;font:13px sans-serif}.mark{fill:#0b1020;font:bold 9px sans-serif}
.docked{fill:#9fb0d0;font:11px sans-serif}.muted{fill:#8d9abb;font:12px sans-serif}.ring{fill:none;stroke:#24345a}
.ship:focus circle,.ship.selected circle,.obj:focus .jp,.obj.selected .jp{stroke:#ffe066;stroke-width:3}
"""

HEX_STYLE = """
.hex polygon{stroke:#6b6b5a;stroke-width:1}.hex text{font:9px sans-serif;fill:#333}.hex .lvl{font:bold 10px sans-serif}
.hex .cond{font:8px sans-serif;fill:#234}.hex:focus polygon,.hex.selected polygon{stroke:#d00;stroke-width:3}
.vent{fill:none;stroke:#c0392b;stroke-width:2}.vent.erupting{fill:#f39c12;fill-opacity:.6}
.unit circle{fill:#234;stroke:#fff;stroke-width:1.5}.unit path{fill:#c0392b;stroke:#fff;stroke-width:1}.unit text{font:bold 9px sans-serif;fill:#fff}
.weather{font:13px sans-serif;fill:#222}
"""

STAR_STYLE = """
.bg{fill:#070b18}.grid{stroke:#18223d;stroke-width:1}.lbl{fill:#e8eefc;font:13px sans-serif}
.muted{fill:#8d9abb;font:12px sans-serif}.system circle{fill:#ffd45e;stroke:#fff3b0;stroke-width:1.5}
.system.unexplored circle{fill:#070b18;stroke:#ffd45e;stroke-dasharray:3 2}.system.unshared text{fill:#b9a3ff}
.system:focus circle,.system.selected circle{stroke:#7fd4ff;stroke-width:4}
.ship circle{fill:#cfe3ff;stroke:#070b18;stroke-width:1}.ship text{fill:#cfe3ff;font:11px sans-serif}
.ship:focus circle,.ship.selected circle{stroke:#ffe066;stroke-width:3}
.reach{fill:#7fd4ff;fill-opacity:.07;stroke:#7fd4ff;stroke-width:1.5;stroke-dasharray:6 4}
.voyage{stroke:#9fe39f;stroke-width:2.5;fill:none}.route{stroke:#ff8f6b;stroke-width:2.5;stroke-dasharray:8 5;fill:none}
"""
