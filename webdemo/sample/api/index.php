<?php

declare(strict_types=1);

require __DIR__ . '/Greeter.php';

use Greeter\Api\Greeter;

$greeter = new Greeter();
echo $greeter->hello($_GET['name'] ?? 'world');
