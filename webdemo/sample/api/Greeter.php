<?php

declare(strict_types=1);

namespace Greeter\Api;

/**
 * Greeter answers the demo's /hello route.
 */
final class Greeter
{
    public function __construct(private string $greeting = 'Hello')
    {
    }

    public function hello(string $name): string
    {
        return sprintf('%s, %s!', $this->greeting, $name);
    }
}
