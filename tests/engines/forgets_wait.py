"""Fault: declares its identity and parameters after `hub`, but forgets the `wait` that ends them."""

from hub_base import Engine, send


class ForgetsWait(Engine):
    def on_hub(self) -> None:
        send(f'id name={self.name} version=1.0 author="Arbiter tests"')
        for line in self.params:
            send(line)


if __name__ == "__main__":
    ForgetsWait().run()
